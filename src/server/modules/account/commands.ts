import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { updateProfileSchema } from '../../../shared/auth-schemas';
import type { EmailPreferences, OptionalEmail } from '../../../shared/email-preferences';
import { type Account, type Principal, toAccount } from '../../common/account';
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

const COLUMN_OF = { statusUpdates: 'emailNotifications', digests: 'emailDigests' } as const;

/** Sets which optional emails the customer gets (Profile). */
export async function setEmailPreferences(
  context: CommandContext,
  account: Principal,
  preferences: EmailPreferences,
): Promise<Outcome<EmailPreferences>> {
  const [row] = await context.db
    .update(users)
    .set({
      emailNotifications: preferences.statusUpdates,
      emailDigests: preferences.digests,
      updatedAt: new Date(context.now()),
    })
    .where(eq(users.id, account.id))
    .returning({ statusUpdates: users.emailNotifications, digests: users.emailDigests });
  if (!row) throw new HttpError(401, 'Unauthorized');
  return { value: row, changed: accountChanged(account) };
}

/**
 * A one-click unsubscribe: that kind of email stops, and nothing else changes. Answers whether
 * the customer still exists (a link of a deleted account does nothing).
 */
export async function unsubscribe(
  context: CommandContext,
  userId: string,
  kind: OptionalEmail,
): Promise<Outcome<boolean>> {
  const [row] = await context.db
    .update(users)
    .set({ [COLUMN_OF[kind]]: false, updatedAt: new Date(context.now()) })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return { value: Boolean(row), changed: row ? accountChanged({ kind: 'user', id: userId }) : [] };
}
