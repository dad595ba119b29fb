import { and, desc, eq, isNull } from 'drizzle-orm';
import type { PaymentMethod } from '../../../shared/payment-methods';
import type { Db } from '../../db/client';
import { paymentMethods } from '../../db/schema';

type Row = typeof paymentMethods.$inferSelect;

/**
 * A method as its owner reads it. `payoutsFrom` (decision 072; issue 43 item 17): when payouts to
 * it may start, PAYOUT_HOLD_NEW_METHOD_HOURS after its payee details were set; null with the hold
 * off. A fixed time, so a cached answer stays true: the form compares it with the clock.
 */
export const toPaymentMethod = (row: Row, holdHours: number): PaymentMethod => ({
  id: row.id,
  type: row.type,
  accountName: row.accountName,
  identifier: row.identifier,
  accountNumber: row.accountNumber,
  bankName: row.bankName,
  routingNumber: row.routingNumber,
  isDefault: row.isDefault,
  createdAt: row.createdAt.toISOString(),
  payoutsFrom:
    holdHours > 0
      ? new Date(row.payeeChangedAt.getTime() + holdHours * 3_600_000).toISOString()
      : null,
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
