import { eq, sql } from 'drizzle-orm';
import { type Account, toAccount } from '../../common/account';
import { isUniqueViolation, normalizeEmail } from '../../common/accounts';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError } from '../../common/http-error';
import { sessions, users } from '../../db/schema';

const ACCOUNT_EXISTS = 'An account with this email already exists';

/** 409 for an email already taken, whatever its case (PRODUCT.md). */
export const accountExists = () => new HttpError(409, ACCOUNT_EXISTS, { email: ACCOUNT_EXISTS });

/** A new customer account; two sign-ups racing for one email make one account and one 409. */
export async function signUpCustomer(
  context: CommandContext,
  input: { email: string; firstName: string; lastName: string },
  passwordHash: string,
): Promise<Outcome<Account>> {
  try {
    const [row] = await context.db
      .insert(users)
      .values({ ...input, email: normalizeEmail(input.email), password: passwordHash })
      .returning();
    return {
      value: toAccount('user', row!),
      changed: [change([STAFF], ['users', 'admin-stats'])],
    };
  } catch (error) {
    if (isUniqueViolation(error)) throw accountExists();
    throw error;
  }
}

/**
 * The session's owner gave their password (or a code) again: payment-method changes are open to
 * it for 10 minutes from `now` (decision 072). Kept in the session's row, read by every instance.
 */
export async function markSessionFresh(
  context: CommandContext,
  sid: string,
): Promise<Outcome<number>> {
  const now = context.now();
  await context.db
    .update(sessions)
    .set({
      sess: sql`(coalesce(${sessions.sess}::jsonb, '{}'::jsonb) || jsonb_build_object('reauthAt', ${now}::bigint))::json`,
    })
    .where(eq(sessions.sid, sid));
  return { value: now, changed: [] };
}
