import type { z } from 'zod';
import { isUuid } from '../../../shared/ids';
import type {
  createPaymentMethodSchema,
  PaymentMethod,
  updatePaymentMethodSchema,
} from '../../../shared/payment-methods';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError, notFound } from '../../common/http-error';
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

export async function addPaymentMethod(
  context: CommandContext,
  userId: string,
  input: z.infer<typeof createPaymentMethodSchema>,
): Promise<Outcome<PaymentMethod>> {
  const row = await createPaymentMethod(context.db, userId, input);
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
  const result = await updatePaymentMethod(context.db, userId, id, input);
  if (result === 'not-found') throw notFound(NOT_FOUND);
  if (result === 'only-default') throw new HttpError(409, ONLY_DEFAULT);
  return { value: toPaymentMethod(result), changed: [methodsChanged(userId)] };
}

/** Hides one of the customer's methods (kept for the cards that name it: PRODUCT.md). */
export async function removePaymentMethod(
  context: CommandContext,
  userId: string,
  id: string,
): Promise<Outcome<true>> {
  if (!isUuid(id) || !(await deletePaymentMethod(context.db, userId, id))) {
    throw notFound(NOT_FOUND);
  }
  return { value: true, changed: [methodsChanged(userId)] };
}
