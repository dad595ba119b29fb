import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { updateProfileSchema } from '../../../shared/auth-schemas';
import { type Account, toAccount } from '../../common/account';
import { accountChanged, type CommandContext, type Outcome } from '../../common/command';
import { HttpError } from '../../common/http-error';
import { consumeToken } from '../../common/tokens';
import { admins, users } from '../../db/schema';

/** The account's names (and a customer's email notifications switch); null once it is gone. */
export async function updateProfile(
  context: CommandContext,
  account: Account,
  input: z.infer<typeof updateProfileSchema>,
): Promise<Outcome<Account>> {
  const { firstName, lastName, emailNotifications } = input;
  const names = { firstName, lastName, updatedAt: new Date(context.now()) };
  const [row] =
    account.kind === 'admin'
      ? await context.db.update(admins).set(names).where(eq(admins.id, account.id)).returning()
      : await context.db
          .update(users)
          .set({ ...names, emailNotifications })
          .where(eq(users.id, account.id))
          .returning();
  if (!row) throw new HttpError(401, 'Unauthorized');
  return { value: toAccount(account.kind, row), changed: accountChanged(account) };
}

/**
 * Uses a confirmation link: it confirms the address it was sent to (an address changed since is
 * not confirmed). Answers the customer's id, or null when the link does not (or no longer) work.
 */
export async function confirmEmail(
  context: CommandContext,
  token: string,
): Promise<Outcome<string | null>> {
  const now = context.now();
  const userId = await context.db.transaction(async (tx) => {
    const row = await consumeToken(tx, 'email_verification', token, now);
    if (!row) return null;
    const [user] = await tx
      .update(users)
      .set({ emailVerifiedAt: new Date(now), updatedAt: new Date(now) })
      .where(and(eq(users.id, row.accountId), eq(users.email, row.email)))
      .returning({ id: users.id });
    return user?.id ?? null;
  });
  return {
    value: userId,
    changed: userId ? accountChanged({ kind: 'user', id: userId }) : [],
  };
}
