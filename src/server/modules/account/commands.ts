import { and, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { updateProfileSchema } from '../../../shared/auth-schemas';
import type { EmailPreferences, OptionalEmail } from '../../../shared/email-preferences';
import { type Account, type Principal, toAccount } from '../../common/account';
import {
  accountExists,
  findUserByEmail,
  isUniqueViolation,
  normalizeEmail,
} from '../../common/accounts';
import { accountChanged, type CommandContext, type Outcome } from '../../common/command';
import { HttpError } from '../../common/http-error';
import { consumeToken, issueToken } from '../../common/tokens';
import { admins, users } from '../../db/schema';
import { queueMail } from '../../mail/queue';

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

export const SAME_EMAIL = 'This is already your email address';

/**
 * A customer moves the account to a new address (issue 22, item 3), password checked by the
 * route: a link goes to the new address, and nothing changes until it is opened (confirmEmail),
 * so a typo cannot lock the customer out. A newer request ends the older link.
 */
export async function requestEmailChange(
  context: CommandContext,
  account: Account,
  email: string,
): Promise<Outcome<void>> {
  const next = normalizeEmail(email);
  if (next === normalizeEmail(account.email)) {
    throw new HttpError(400, SAME_EMAIL, { email: SAME_EMAIL });
  }
  if (await findUserByEmail(context.db, next)) throw accountExists();
  const now = context.now();
  const token = await issueToken(context.db, 'email_change', account, next, now);
  await queueMail(context.db, now, next, 'confirm-email-change', {
    firstName: account.firstName,
    email: next,
    link: `${context.config.appUrl}/verify-email?token=${encodeURIComponent(token)}`,
  });
  return { value: undefined, changed: [] };
}

/**
 * A new address confirmed from its link: the account moves to it (confirmed, since the link
 * reached it), and the old address is told, in case it was not its owner. Answers the customer's
 * id, or null when the link does not work (or the address was taken meanwhile).
 */
async function confirmEmailChange(context: CommandContext, token: string) {
  const now = context.now();
  return context.db.transaction(async (tx) => {
    const row = await consumeToken(tx, 'email_change', token, now);
    if (!row) return null;
    const [before] = await tx
      .select({ email: users.email, firstName: users.firstName })
      .from(users)
      .where(eq(users.id, row.accountId))
      .for('no key update');
    if (!before) return null;
    const taken = await findUserByEmail(tx, row.email);
    if (taken && taken.id !== row.accountId) throw accountExists();
    // Another account that took the address since: the unique index refuses, and so do we.
    await tx
      .update(users)
      .set({ email: row.email, emailVerifiedAt: new Date(now), updatedAt: new Date(now) })
      .where(and(eq(users.id, row.accountId), ne(users.email, row.email)))
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? accountExists() : error;
      });
    await queueMail(tx, now, before.email, 'email-changed', {
      firstName: before.firstName,
      email: row.email,
    });
    return row.accountId;
  });
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
  const changedTo = userId ? null : await confirmEmailChange(context, token);
  return {
    value: userId ?? changedTo,
    changed:
      userId || changedTo ? accountChanged({ kind: 'user', id: (userId ?? changedTo)! }) : [],
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
