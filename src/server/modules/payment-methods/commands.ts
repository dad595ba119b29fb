import type { z } from 'zod';
import { isUuid } from '../../../shared/ids';
import type {
  createPaymentMethodSchema,
  PaymentMethod,
  updatePaymentMethodSchema,
} from '../../../shared/payment-methods';
import { paymentMethodLabel } from '../../../shared/payment-methods';
import { findUserById } from '../../common/accounts';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError, notFound } from '../../common/http-error';
import { queueMail } from '../../mail/queue';
import {
  createPaymentMethod,
  deletePaymentMethod,
  toPaymentMethod,
  updatePaymentMethod,
} from './queries';

const NOT_FOUND = 'Payment method not found';
const ONLY_DEFAULT = 'This is your default payment method. Choose another default first.';

/** A customer's methods show in their list, their transactions and the staff queue. */
const methodsChanged = (userId: string) =>
  change([userId, STAFF], ['payment-methods', 'transactions', 'queue']);

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
  return { value: toPaymentMethod(row), changed: [methodsChanged(userId)] };
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
  return { value: toPaymentMethod(result), changed: [methodsChanged(userId)] };
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
