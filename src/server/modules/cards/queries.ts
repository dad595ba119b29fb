import { and, desc, eq, sql } from 'drizzle-orm';
import type { Feedback } from '../../../shared/feedback';
import { rejectionReasonLabel } from '../../../shared/rejections';
import type { Transaction } from '../../../shared/transactions';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { feedback, paymentMethods, transactions } from '../../db/schema';

/** What a customer's transaction answers carry (transactionSchema), and nothing else. */
const columns = {
  id: transactions.id,
  createdAt: transactions.createdAt,
  updatedAt: transactions.updatedAt,
  cardType: transactions.cardType,
  cardValue: transactions.cardValue,
  cardCondition: transactions.cardCondition,
  cardFormat: transactions.cardFormat,
  imageUrls: transactions.imageUrls,
  notes: transactions.notes,
  status: transactions.status,
  paymentStatus: transactions.paymentStatus,
  paymentAmount: transactions.paymentAmount,
  adminNotes: transactions.adminNotes,
  validationStatus: transactions.validationStatus,
  payoutRate: transactions.payoutRate,
  expectedPayout: transactions.expectedPayout,
  paymentMethodId: transactions.paymentMethodId,
  paymentMethodType: paymentMethods.type,
  paymentMethodAccountName: paymentMethods.accountName,
  rejectionReason: transactions.rejectionReason,
  rejectionNote: transactions.rejectionNote,
  ...feedbackColumns(),
};

/** The card's rating (one at most: a unique index), for a left join on `feedback`. */
export function feedbackColumns() {
  return {
    feedbackRating: feedback.rating,
    feedbackComment: feedback.comment,
    feedbackCreatedAt: feedback.createdAt,
  };
}

type FeedbackRow = {
  feedbackRating: number | null;
  feedbackComment: string | null;
  feedbackCreatedAt: Date | null;
};
type RejectionRow = { rejectionReason: string | null; rejectionNote: string | null };

/**
 * The fields a transaction answer adds to its row: the rejection's label, and the rating as one
 * object (the flat columns it came in are dropped).
 */
export function answerFields<T extends FeedbackRow & RejectionRow>(row: T) {
  const { feedbackRating, feedbackComment, feedbackCreatedAt, ...rest } = row;
  const rating: Feedback | null =
    feedbackRating === null || feedbackCreatedAt === null
      ? null
      : {
          rating: feedbackRating,
          comment: feedbackComment,
          createdAt: feedbackCreatedAt.toISOString(),
        };
  return {
    ...rest,
    rejectionReasonLabel: row.rejectionReason ? rejectionReasonLabel(row.rejectionReason) : null,
    feedback: rating,
  };
}

/** The customer's transactions, newest first, with the name of the method they are paid to. */
const listStatement = (db: Db, limited: boolean) =>
  prepared(db, limited ? 'transactions-recent' : 'transactions-list', (db, name) => {
    const query = db
      .select(columns)
      .from(transactions)
      .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
      .leftJoin(feedback, eq(feedback.transactionId, transactions.id))
      .where(eq(transactions.userId, sql.placeholder('userId')))
      .orderBy(desc(transactions.createdAt), desc(transactions.id));
    return (limited ? query.limit(sql.placeholder('limit')) : query).prepare(name);
  });

type Row = Awaited<ReturnType<ReturnType<typeof listStatement>['execute']>>[number];

export const toTransaction = (row: Row): Transaction => ({
  ...answerFields(row),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function listTransactions(db: Db, userId: string, limit?: number) {
  const rows = await listStatement(db, limit !== undefined).execute({ userId, limit });
  return rows.map(toTransaction);
}

export async function findTransaction(db: Db, id: string, userId?: string) {
  const [row] = await db
    .select({
      ...columns,
      userId: transactions.userId,
      paymentMethodIdentifier: paymentMethods.identifier,
      paymentMethodAccountNumber: paymentMethods.accountNumber,
      paymentMethodBankName: paymentMethods.bankName,
    })
    .from(transactions)
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .leftJoin(feedback, eq(feedback.transactionId, transactions.id))
    .where(
      userId
        ? and(eq(transactions.id, id), eq(transactions.userId, userId))
        : eq(transactions.id, id),
    );
  return row;
}

/** totalEarned sums paymentAmount over completed transactions (PRODUCT.md). */
const statsStatement = (db: Db) =>
  prepared(db, 'transaction-stats', (db, name) =>
    db
      .select({
        totalSubmitted: sql<number>`count(*)::int`,
        pending: sql<number>`(count(*) filter (where ${transactions.status} = 'pending'))::int`,
        completed: sql<number>`(count(*) filter (where ${transactions.status} = 'completed'))::int`,
        totalEarned: sql<string>`coalesce(sum(${transactions.paymentAmount}) filter (where ${transactions.status} = 'completed'), 0)::numeric(12,2)::text`,
      })
      .from(transactions)
      .where(eq(transactions.userId, sql.placeholder('userId')))
      .prepare(name),
  );

export async function transactionStats(db: Db, userId: string) {
  const [row] = await statsStatement(db).execute({ userId });
  return row!;
}

/**
 * Saves the customer's rating of a card, once: null when the card already has one (the unique
 * index decides, so two requests at the same moment make one row and no error).
 */
export async function addFeedback(
  db: Db,
  userId: string,
  transactionId: string,
  input: { rating: number; comment: string | null },
): Promise<Feedback | null> {
  const [row] = await db
    .insert(feedback)
    .values({ userId, transactionId, type: 'transaction', ...input })
    .onConflictDoNothing({ target: feedback.transactionId })
    .returning();
  return row
    ? { rating: row.rating, comment: row.comment, createdAt: row.createdAt.toISOString() }
    : null;
}
