import { and, asc, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { isUuid } from '../../../shared/ids';
import type {
  CreatePaymentMethodInput,
  createPaymentMethodSchema,
  PaymentMethod,
  UpdatePaymentMethodInput,
  updatePaymentMethodSchema,
} from '../../../shared/payment-methods';
import { paymentMethodLabel } from '../../../shared/payment-methods';
import { findUserById } from '../../common/accounts';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError, notFound } from '../../common/http-error';
import type { Db } from '../../db/client';
import { paymentMethods, users } from '../../db/schema';
import { queueMail } from '../../mail/queue';
import { toPaymentMethod, visibleTo } from './queries';

const NOT_FOUND = 'Payment method not found';
const ONLY_DEFAULT = 'This is your default payment method. Choose another default first.';

/** A customer's methods show in their list, their transactions and the staff queue. */
const methodsChanged = (userId: string) =>
  change([userId, STAFF], ['payment-methods', 'transactions', 'queue']);

/** A method as its owner sees it, with the lists its change touches. */
const answer = (
  context: CommandContext,
  userId: string,
  row: Parameters<typeof toPaymentMethod>[0],
): Outcome<PaymentMethod> => ({
  value: toPaymentMethod(row, context.config.verification.payoutHoldNewMethodHours),
  changed: [methodsChanged(userId)],
});

/**
 * Every change to where the money goes is announced by email, whatever the notification setting
 * (decision 072): "A payout method was added to your account. If this wasn't you, …".
 */
async function announce(
  context: CommandContext,
  userId: string,
  action: 'added' | 'changed' | 'removed',
  method: {
    type: string;
    accountName: string;
    identifier: string | null;
    accountNumber: string | null;
  },
) {
  const user = await findUserById(context.db, userId);
  if (!user) return;
  const last4 = (method.identifier ?? method.accountNumber ?? '').slice(-4);
  await queueMail(context.db, context.now(), user.email, 'payment-method-changed', {
    firstName: user.firstName,
    action,
    method: `${paymentMethodLabel(method.type)} (${method.accountName}${last4 ? `, ending ${last4}` : ''})`,
    holdHours: context.config.verification.payoutHoldNewMethodHours,
    url: `${context.config.appUrl}/payment-methods`,
  });
}

export async function addPaymentMethod(
  context: CommandContext,
  userId: string,
  input: z.infer<typeof createPaymentMethodSchema>,
): Promise<Outcome<PaymentMethod>> {
  const row = await createPaymentMethod(context.db, userId, input, context.now());
  await announce(context, userId, 'added', row);
  return answer(context, userId, row);
}

/** Edits one of the customer's methods (another customer's is a 404). */
export async function editPaymentMethod(
  context: CommandContext,
  userId: string,
  id: string,
  input: z.infer<typeof updatePaymentMethodSchema>,
): Promise<Outcome<PaymentMethod>> {
  if (!isUuid(id)) throw notFound(NOT_FOUND);
  const result = await updatePaymentMethod(context.db, userId, id, input, context.now());
  if (result === 'not-found') throw notFound(NOT_FOUND);
  if (result === 'only-default') throw new HttpError(409, ONLY_DEFAULT);
  await announce(context, userId, 'changed', result);
  return answer(context, userId, result);
}

/** Hides one of the customer's methods (kept for the cards that name it: PRODUCT.md). */
export async function removePaymentMethod(
  context: CommandContext,
  userId: string,
  id: string,
): Promise<Outcome<true>> {
  const removed = isUuid(id) ? await deletePaymentMethod(context.db, userId, id) : null;
  if (!removed) throw notFound(NOT_FOUND);
  await announce(context, userId, 'removed', removed);
  return { value: true, changed: [methodsChanged(userId)] };
}

type CreateData = Omit<Required<CreatePaymentMethodInput>, 'isDefault'> & { isDefault: boolean };

/**
 * Serialises one customer's payment-method writes (a row lock on the customer): two methods added
 * at the same moment must not both become the only default.
 */
const lockCustomer = (tx: Db, userId: string) =>
  tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');

/** The first method becomes the default; a new default takes the flag from the old one. */
function createPaymentMethod(db: Db, userId: string, input: CreateData, now: number) {
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
function updatePaymentMethod(db: Db, userId: string, id: string, input: UpdateData, now: number) {
  return db.transaction(async (tx): Promise<typeof paymentMethods.$inferSelect | UpdateRefusal> => {
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
function deletePaymentMethod(db: Db, userId: string, id: string) {
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
