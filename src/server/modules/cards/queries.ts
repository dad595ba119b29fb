import { and, desc, eq, sql } from 'drizzle-orm';
import type { Transaction } from '../../../shared/transactions';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { paymentMethods, transactions } from '../../db/schema';

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
};

/** The customer's transactions, newest first, with the name of the method they are paid to. */
const listStatement = (db: Db, limited: boolean) =>
  prepared(db, limited ? 'transactions-recent' : 'transactions-list', (db, name) => {
    const query = db
      .select(columns)
      .from(transactions)
      .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
      .where(eq(transactions.userId, sql.placeholder('userId')))
      .orderBy(desc(transactions.createdAt), desc(transactions.id));
    return (limited ? query.limit(sql.placeholder('limit')) : query).prepare(name);
  });

type Row = Awaited<ReturnType<ReturnType<typeof listStatement>['execute']>>[number];

export const toTransaction = (row: Row): Transaction => ({
  ...row,
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
