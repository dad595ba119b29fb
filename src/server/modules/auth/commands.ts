import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { type Account, toAccount } from '../../common/account';
import { accountExists, isUniqueViolation, normalizeEmail } from '../../common/accounts';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { accountDevices, admins, sessions, users } from '../../db/schema';
import { queueMail } from '../../mail/queue';

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

/** "Firefox on Windows": a readable name for a user agent, good enough for an alert. */
export function deviceName(userAgent: string | undefined): string {
  if (!userAgent) return 'An unknown browser';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\/|Chromium\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : null;
  const os = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (!browser && !os) return userAgent.slice(0, 120);
  return `${browser ?? 'A browser'}${os ? ` on ${os}` : ''}`;
}

/**
 * Remembers the browser and address a customer signed in from (decision 072). A pair the account
 * had not used before is emailed, unless it is the account's first (its sign-up, or its first
 * sign-in since devices were remembered). Answers whether it was new.
 */
export async function recordSignInDevice(
  context: CommandContext,
  account: Account,
  device: { userAgent: string | undefined; ip: string },
): Promise<Outcome<boolean>> {
  if (account.kind !== 'user') {
    // A staff member's last sign-in, for the Staff tab (decision 077).
    await context.db
      .update(admins)
      .set({ lastSignInAt: new Date(context.now()) })
      .where(eq(admins.id, account.id));
    return { value: false, changed: [] };
  }
  const deviceHash = createHash('sha256')
    .update(`${device.userAgent ?? ''}|${device.ip}`)
    .digest('hex');
  const now = new Date(context.now());
  return context.db.transaction(async (tx) => {
    const mine = and(
      eq(accountDevices.accountKind, 'user'),
      eq(accountDevices.accountId, account.id),
    );
    const known = await tx.$count(accountDevices, mine);
    const [inserted] = await tx
      .insert(accountDevices)
      .values({
        accountKind: 'user',
        accountId: account.id,
        deviceHash,
        userAgent: device.userAgent?.slice(0, 300) ?? null,
        ip: device.ip.slice(0, 64),
        firstSeenAt: now,
        lastSeenAt: now,
      })
      .onConflictDoUpdate({
        target: [accountDevices.accountKind, accountDevices.accountId, accountDevices.deviceHash],
        set: { lastSeenAt: now },
      })
      .returning({ firstSeenAt: accountDevices.firstSeenAt });
    const isNew = inserted!.firstSeenAt.getTime() === now.getTime();
    if (isNew && known > 0) {
      await queueMail(tx, context.now(), account.email, 'new-sign-in', {
        firstName: account.firstName,
        device: deviceName(device.userAgent),
        address: device.ip,
        time: `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        url: `${context.config.appUrl}/profile`,
      });
    }
    return { value: isNew, changed: [] };
  });
}
