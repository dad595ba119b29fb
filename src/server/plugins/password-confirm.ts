import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Principal } from '../common/account';
import { passwordHashOf } from '../common/accounts';
import { HttpError } from '../common/http-error';
import { checkPassword } from '../common/passwords';
import { countAttempt, HOUR } from './rate-limit';

/** Wrong passwords an account may send in an hour, across every change that asks for one. */
export const WRONG_PASSWORDS_PER_HOUR = 10;

/**
 * Checks the signed-in account's own password before a change (a new password, a new email,
 * deleting the account): counted before it is checked, so guesses sent at once are not all
 * heard, with one budget for all of them. A wrong one answers 400 naming `field`.
 */
export async function confirmOwnPassword(
  app: FastifyInstance,
  reply: FastifyReply,
  account: Principal,
  password: string,
  {
    field = 'password',
    wrong = 'Password is incorrect',
    refusal = 'Too many wrong passwords.',
  } = {},
) {
  const succeeded = await countAttempt(app.counters, reply, {
    key: `password-change-failure:${account.kind}:${account.id}`,
    max: WRONG_PASSWORDS_PER_HOUR,
    windowMs: HOUR,
    refusal,
  });
  const stored = await passwordHashOf(app.db, account);
  if (!(await checkPassword(password, stored, app.config.bcryptCost))) {
    throw new HttpError(400, wrong, { [field]: wrong });
  }
  await succeeded();
}
