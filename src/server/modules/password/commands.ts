import { eq, sql } from 'drizzle-orm';
import type { Principal } from '../../common/account';
import { setPassword } from '../../common/accounts';
import type { CommandContext, Outcome } from '../../common/command';
import { badRequest } from '../../common/http-error';
import { consumeToken, PASSWORD_LINKS, principalOf, revokeTokens } from '../../common/tokens';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { deleteAccountSessions } from '../sessions';

export const BAD_LINK =
  'This link is invalid or has expired. Ask for a new one from the sign-in page.';

/**
 * A new password, in the caller's transaction: the hash stored, every reset and sign-in link
 * still out ended, and every session of the account deleted (those waiting for a code too) but
 * `keepSid`. Answers the account's email and first name (undefined once it is gone) and the
 * sessions that ended.
 */
async function replacePassword(
  tx: Db,
  principal: Principal,
  hash: string,
  now: number,
  keepSid?: string,
) {
  const row = await setPassword(tx, principal, hash, now);
  await revokeTokens(tx, PASSWORD_LINKS, principal, now);
  const ended = await deleteAccountSessions(tx, principal, keepSid);
  return { row, ended };
}

/**
 * Sets a new password with a reset link: the link is used up in the statement that checks it (of
 * two tabs racing with one link, one wins), everyone who knew the old password is signed out, and
 * a customer's address counts as confirmed when the link reached it.
 */
export async function resetPassword(
  context: CommandContext,
  token: string,
  hash: string,
): Promise<Outcome<{ principal: Principal; email: string; firstName: string | null }>> {
  const now = context.now();
  return context.db.transaction(async (tx) => {
    const used = await consumeToken(tx, 'password_reset', token, now);
    if (!used) throw badRequest(BAD_LINK, 'token');
    const principal = principalOf(used);
    const { row, ended } = await replacePassword(tx, principal, hash, now);
    if (!row) throw badRequest(BAD_LINK, 'token');
    if (principal.kind === 'user' && row.email === used.email) {
      await tx
        .update(users)
        .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${new Date(now)})` })
        .where(eq(users.id, principal.id));
    }
    return {
      value: { principal, ...row },
      changed: [{ sessionsEnded: ended }, { account: principal }],
    };
  });
}

/** Sets a new password for a signed-in account: its other sessions end. Answers how many. */
export async function changePassword(
  context: CommandContext,
  principal: Principal,
  hash: string,
  keepSid: string,
): Promise<Outcome<number>> {
  return context.db.transaction(async (tx) => {
    const { ended } = await replacePassword(tx, principal, hash, context.now(), keepSid);
    return { value: ended.length, changed: [{ sessionsEnded: ended }] };
  });
}
