import { and, desc, eq, sql } from 'drizzle-orm';
import { RECENT_TRANSACTIONS_LIMIT, type Transaction } from '../../../shared/transactions';
import { BatchLoader, groupBy } from '../../db/batch';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { mappedOnce } from '../../db/rows';
import { feedback, paymentMethods, transactions } from '../../db/schema';
import { sellerMoneyColumns } from '../ledger';
import {
  fairDealingColumns,
  fairDealingFields,
  feedbackColumns,
  feedbackOf,
  payoutColumn,
  payoutOf,
  rejectionLabelOf,
} from './columns';

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
  cardCodeLast4: transactions.cardCodeLast4,
  status: transactions.status,
  paymentStatus: transactions.paymentStatus,
  paymentAmount: transactions.paymentAmount,
  adminNotes: transactions.adminNotes,
  validationStatus: transactions.validationStatus,
  payoutRate: transactions.payoutRate,
  expectedPayout: transactions.expectedPayout,
  paidAt: transactions.paidAt,
  payoutReference: transactions.payoutReference,
  paymentMethodId: transactions.paymentMethodId,
  paymentMethodType: paymentMethods.type,
  paymentMethodAccountName: paymentMethods.accountName,
  rejectionReason: transactions.rejectionReason,
  rejectionNote: transactions.rejectionNote,
  ...fairDealingColumns,
  ...feedbackColumns(),
  payoutText: payoutColumn(),
};

/** The columns above, from a transaction joined with its payment method and its rating. */
const selectTransactions = (db: Db) =>
  db
    .select(columns)
    .from(transactions)
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .leftJoin(feedback, eq(feedback.transactionId, transactions.id));

type Row = Awaited<ReturnType<typeof selectTransactions>>[number];

/**
 * A row as the customer's answer, field by field: the customer's list maps thousands of rows at
 * once after a restart, and copying each row through rest and spread objects (answerFields, as
 * staff answers do) cost about a quarter of a cold answer's CPU in a profile (issue 26).
 */
export const toTransaction = (row: Row): Transaction => ({
  id: row.id,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  cardType: row.cardType,
  cardValue: row.cardValue,
  cardCondition: row.cardCondition,
  cardFormat: row.cardFormat,
  imageUrls: row.imageUrls,
  notes: row.notes,
  cardCodeLast4: row.cardCodeLast4,
  status: row.status,
  paymentStatus: row.paymentStatus,
  paymentAmount: row.paymentAmount,
  adminNotes: row.adminNotes,
  payoutRate: row.payoutRate,
  expectedPayout: row.expectedPayout,
  paymentMethodId: row.paymentMethodId,
  paymentMethodType: row.paymentMethodType,
  paymentMethodAccountName: row.paymentMethodAccountName,
  rejectionReason: row.rejectionReason,
  rejectionReasonLabel: rejectionLabelOf(row),
  rejectionNote: row.rejectionNote,
  paidAt: row.paidAt ? row.paidAt.toISOString() : null,
  payoutReference: row.payoutReference,
  feedback: feedbackOf(row),
  ...fairDealingFields(row),
  payout: payoutOf(row.payoutText),
});

const byUserIds = sql`${transactions.userId} = any(${sql.placeholder('userIds')}::uuid[])`;

/**
 * Customers' transactions, newest first, with the name of the method they are paid to: every
 * customer asked for at once in one statement (db/batch.ts), the rows grouped by customer.
 */
const listLoader = (db: Db) =>
  prepared(db, 'transactions-list', (db) => {
    const statement = mappedOnce(
      db
        .select({ ...columns, userId: transactions.userId })
        .from(transactions)
        .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
        .leftJoin(feedback, eq(feedback.transactionId, transactions.id))
        .where(byUserIds)
        .orderBy(desc(transactions.createdAt), desc(transactions.id))
        .prepare('transactions-list-many'),
    );
    return new BatchLoader(
      async (userIds: string[]) => {
        const rows = await statement.execute({ userIds });
        return groupBy(rows, (row) => row.userId);
      },
      () => [],
    );
  });

/** The newest RECENT_TRANSACTIONS_LIMIT of each customer, read through the index per customer. */
const recentLoader = (db: Db) =>
  prepared(db, 'transactions-recent', (db) => {
    const latest = selectTransactions(db)
      .where(eq(transactions.userId, sql`ids.user_id`))
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(RECENT_TRANSACTIONS_LIMIT)
      .as('latest');
    const fields = Object.fromEntries(
      Object.keys(columns).map((name) => [name, latest[name as keyof typeof columns]]),
    ) as { [K in keyof typeof columns]: (typeof latest)[K] };
    const statement = mappedOnce(
      db
        .select({ userId: sql<string>`ids.user_id`.as('user_id'), ...fields })
        .from(sql`unnest(${sql.placeholder('userIds')}::uuid[]) as ids(user_id)`)
        .crossJoinLateral(latest)
        .prepare('transactions-recent-many'),
    );
    return new BatchLoader(
      async (userIds: string[]) => {
        const rows = await statement.execute({ userIds });
        return groupBy(rows, (row) => row.userId);
      },
      () => [],
    );
  });

/** The customer's transactions, newest first (all of them, or the most recent few). */
export async function listTransactions(db: Db, userId: string, recent = false) {
  const rows = await (recent ? recentLoader(db) : listLoader(db)).load(userId);
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

/**
 * The dashboard's figures: counts by status from the cards; totalEarned (paid in total) and
 * awaitingPayment (approved, not yet paid) from the books (issue 39, decision 093), which answer
 * what the cards' columns did (PRODUCT.md, decisions 052 and 060).
 */
const statsLoader = (db: Db) =>
  prepared(db, 'transaction-stats', (db) => {
    const statement = mappedOnce(
      db
        .select({
          userId: transactions.userId,
          totalSubmitted: sql<number>`count(*)::int`,
          pending: sql<number>`(count(*) filter (where ${transactions.status} = 'pending'))::int`,
          completed: sql<number>`(count(*) filter (where ${transactions.status} = 'completed'))::int`,
          ...sellerMoneyColumns(),
        })
        .from(transactions)
        .where(byUserIds)
        .groupBy(transactions.userId)
        .prepare('transaction-stats-many'),
    );
    return new BatchLoader(
      async (userIds: string[]) => {
        const rows = await statement.execute({ userIds });
        return new Map(rows.map(({ userId, ...stats }) => [userId, stats]));
      },
      () => ({
        totalSubmitted: 0,
        pending: 0,
        completed: 0,
        totalEarned: '0.00',
        awaitingPayment: '0.00',
      }),
    );
  });

export async function transactionStats(db: Db, userId: string) {
  return statsLoader(db).load(userId);
}
