import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Transaction } from '../../../shared/transactions';
import type { Db } from '../../db/client';
import { paymentMethods, transactions } from '../../db/schema';

const columns = {
  ...getTableColumns(transactions),
  paymentMethodType: paymentMethods.type,
  paymentMethodAccountName: paymentMethods.accountName,
};

type Row = typeof transactions.$inferSelect & {
  paymentMethodType: string | null;
  paymentMethodAccountName: string | null;
};

export const toTransaction = ({ userId: _userId, ...row }: Row): Transaction => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The customer's transactions, newest first, with the name of the method they are paid to. */
export function listTransactions(db: Db, userId: string, limit?: number) {
  const query = db
    .select(columns)
    .from(transactions)
    .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
    .where(eq(transactions.userId, userId))
    .orderBy(desc(transactions.createdAt), desc(transactions.id));
  return limit ? query.limit(limit) : query;
}

export async function findTransaction(db: Db, id: string, userId?: string) {
  const [row] = await db
    .select({ ...columns, paymentMethodIdentifier: paymentMethods.identifier })
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
export async function transactionStats(db: Db, userId: string) {
  const [row] = await db
    .select({
      totalSubmitted: sql<number>`count(*)::int`,
      pending: sql<number>`(count(*) filter (where ${transactions.status} = 'pending'))::int`,
      completed: sql<number>`(count(*) filter (where ${transactions.status} = 'completed'))::int`,
      totalEarned: sql<string>`coalesce(sum(${transactions.paymentAmount}) filter (where ${transactions.status} = 'completed'), 0)::numeric(12,2)::text`,
    })
    .from(transactions)
    .where(eq(transactions.userId, userId));
  return row!;
}
