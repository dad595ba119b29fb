import { HttpError } from './http-error';

export const SUSPENDED_MESSAGE =
  'Your account is suspended: you cannot submit cards, change payment methods or be paid while it is. You can still read your history, chat with us and open tickets; contact support to appeal.';
export const CLOSED_MESSAGE = 'This account is closed.';

/** The refusal of a write a suspended or closed customer may not make (decision 072). */
export function accountNotActive(standing: string): HttpError {
  return standing === 'closed'
    ? new HttpError(403, CLOSED_MESSAGE, undefined, { code: 'account_closed' })
    : new HttpError(403, SUSPENDED_MESSAGE, undefined, { code: 'account_suspended' });
}
