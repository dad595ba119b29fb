import { and, desc, eq, isNull } from 'drizzle-orm';
import type { PaymentMethod } from '../../../shared/payment-methods';
import type { Db } from '../../db/client';
import { paymentMethods } from '../../db/schema';

type Row = typeof paymentMethods.$inferSelect;

export const toPaymentMethod = (row: Row): PaymentMethod => ({
  id: row.id,
  type: row.type,
  accountName: row.accountName,
  identifier: row.identifier,
  accountNumber: row.accountNumber,
  bankName: row.bankName,
  routingNumber: row.routingNumber,
  isDefault: row.isDefault,
  createdAt: row.createdAt.toISOString(),
});

export const visibleTo = (userId: string) =>
  and(eq(paymentMethods.userId, userId), isNull(paymentMethods.deletedAt));

/** The customer's methods they can still use: the default first, then newest first. */
export function listPaymentMethods(db: Db, userId: string) {
  return db
    .select()
    .from(paymentMethods)
    .where(visibleTo(userId))
    .orderBy(desc(paymentMethods.isDefault), desc(paymentMethods.createdAt));
}

export async function findUsablePaymentMethod(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(paymentMethods)
    .where(and(visibleTo(userId), eq(paymentMethods.id, id)));
  return row;
}
