import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type {
  CreatePaymentMethodInput,
  PaymentMethod,
  UpdatePaymentMethodInput,
} from '../../../shared/payment-methods';
import type { Db } from '../../db/client';
import { paymentMethods, users } from '../../db/schema';

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

const visibleTo = (userId: string) =>
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

type CreateData = Omit<Required<CreatePaymentMethodInput>, 'isDefault'> & { isDefault: boolean };

/**
 * Serialises one customer's payment-method writes (a row lock on the customer): two methods added
 * at the same moment must not both become the only default.
 */
const lockCustomer = (tx: Db, userId: string) =>
  tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');

/** The first method becomes the default; a new default takes the flag from the old one. */
export function createPaymentMethod(db: Db, userId: string, input: CreateData, now: number) {
  return db.transaction(async (tx) => {
    await lockCustomer(tx, userId);
    const existing = await tx
      .select({ id: paymentMethods.id })
      .from(paymentMethods)
      .where(visibleTo(userId))
      .limit(1);
    const isDefault = input.isDefault || existing.length === 0;
    if (isDefault) {
      await tx
        .update(paymentMethods)
        .set({ isDefault: false })
        .where(and(visibleTo(userId), eq(paymentMethods.isDefault, true)));
    }
    const [row] = await tx
      .insert(paymentMethods)
      // The app's clock: payouts to it wait from now (decision 072).
      .values({
        ...input,
        userId,
        isDefault,
        createdAt: new Date(now),
        payeeChangedAt: new Date(now),
      })
      .returning();
    return row!;
  });
}

/** The fields that say where the money goes. */
const PAYEE_FIELDS = [
  'type',
  'accountName',
  'identifier',
  'accountNumber',
  'bankName',
  'routingNumber',
] as const;

type UpdateData = Omit<Required<UpdatePaymentMethodInput>, 'isDefault'> & { isDefault?: boolean };

/** Why an edit was refused: not the customer's method, or it would leave them no default. */
export type UpdateRefusal = 'not-found' | 'only-default';

/**
 * Edits a method in place under the same per-customer lock as creation. Making it the default
 * takes the flag from the old default; unsetting the flag of the default is refused, since the
 * customer must always have one (they choose another default instead).
 */
export function updatePaymentMethod(
  db: Db,
  userId: string,
  id: string,
  input: UpdateData,
  now: number,
) {
  return db.transaction(async (tx): Promise<Row | UpdateRefusal> => {
    await lockCustomer(tx, userId);
    const [current] = await tx
      .select()
      .from(paymentMethods)
      .where(and(visibleTo(userId), eq(paymentMethods.id, id)));
    if (!current) return 'not-found';
    if (current.isDefault && input.isDefault === false) return 'only-default';
    const isDefault = input.isDefault ?? current.isDefault;
    if (isDefault && !current.isDefault) {
      await tx
        .update(paymentMethods)
        .set({ isDefault: false })
        .where(and(visibleTo(userId), eq(paymentMethods.isDefault, true)));
    }
    // New payee details: payouts to the method wait again (decision 072).
    const payeeChanged = PAYEE_FIELDS.some(
      (field) => field in input && (input[field] ?? null) !== (current[field] ?? null),
    );
    const [row] = await tx
      .update(paymentMethods)
      .set({ ...input, isDefault, ...(payeeChanged && { payeeChangedAt: new Date(now) }) })
      .where(eq(paymentMethods.id, id))
      .returning();
    return row!;
  });
}

/**
 * Hides a method from its owner but keeps the row for the transactions that name it. When it
 * was the default, the oldest remaining method becomes the default. Null when not theirs.
 */
export function deletePaymentMethod(db: Db, userId: string, id: string) {
  return db.transaction(async (tx) => {
    await lockCustomer(tx, userId);
    const [deleted] = await tx
      .update(paymentMethods)
      .set({ deletedAt: new Date(), isDefault: false })
      .where(and(visibleTo(userId), eq(paymentMethods.id, id)))
      .returning();
    if (!deleted) return null;
    const [next] = await tx
      .select({ id: paymentMethods.id, isDefault: paymentMethods.isDefault })
      .from(paymentMethods)
      .where(visibleTo(userId))
      .orderBy(desc(paymentMethods.isDefault), asc(paymentMethods.createdAt))
      .limit(1);
    if (next && !next.isDefault) {
      await tx
        .update(paymentMethods)
        .set({ isDefault: true })
        .where(eq(paymentMethods.id, next.id));
    }
    return deleted;
  });
}
