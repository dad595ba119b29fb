import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { formatZonedDateTime } from '../../../shared/dates';
import { type Account, type Principal, toAccount } from '../../common/account';
import {
  accountExists,
  findAccountRow,
  isUniqueViolation,
  normalizeEmail,
} from '../../common/accounts';
import { type AuditActor, recordAudit } from '../../common/audit';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError } from '../../common/http-error';
import { consumeToken, issueToken, principalOf, queueVerificationEmail } from '../../common/tokens';
import type { Db } from '../../db/client';
import { accountDevices, admins, users } from '../../db/schema';
import { queueMail } from '../../mail/queue';
import {
  acceptCode,
  acceptRecoveryCode,
  type CodeCheck,
  findTwoFactor,
  newRecoveryCodes,
  resetTwoFactor,
  startEnrolment,
} from './two-factor';

/**
 * A new customer account and the email that confirms its address, in one transaction; two sign-ups
 * racing for one email make one account and one 409. The caller kicks the mail queue.
 */
export async function signUpCustomer(
  context: CommandContext,
  input: { email: string; firstName: string; lastName: string },
  passwordHash: string,
): Promise<Outcome<Account>> {
  const now = context.now();
  try {
    return await context.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({ ...input, email: normalizeEmail(input.email), password: passwordHash })
        .returning();
      const account = toAccount('user', row!);
      await queueVerificationEmail(tx, now, context.config.appUrl, account);
      return { value: account, changed: [change([STAFF], ['users', 'admin-stats'])] };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw accountExists();
    throw error;
  }
}

/**
 * A hash of the old scheme replaced while the password is known (decision 036): only while the
 * account still has the hash that was checked, so a password changed meanwhile is never undone.
 */
export async function upgradePasswordHash(
  context: CommandContext,
  account: Principal,
  checked: string,
  hash: string,
): Promise<Outcome<void>> {
  const set = { password: hash, updatedAt: new Date(context.now()) };
  if (account.kind === 'admin') {
    await context.db
      .update(admins)
      .set(set)
      .where(and(eq(admins.id, account.id), eq(admins.password, checked)));
  } else {
    await context.db
      .update(users)
      .set(set)
      .where(and(eq(users.id, account.id), eq(users.password, checked)));
  }
  return { value: undefined, changed: [] };
}

/**
 * The one-time sign-in link for the owner of a locked account (decision 004), valid 15 minutes:
 * its token and its email in one transaction. The caller kicks the mail queue.
 */
export async function mailSignInLink(
  context: CommandContext,
  account: Principal & { email: string; firstName: string | null },
): Promise<Outcome<void>> {
  const now = context.now();
  return context.db.transaction(async (tx) => {
    const principal = { kind: account.kind, id: account.id };
    const token = await issueToken(tx, 'signin_link', principal, account.email, now);
    await queueMail(tx, now, account.email, 'signin-link', {
      firstName: account.firstName,
      link: `${context.config.appUrl}/sign-in-link?token=${token}`,
    });
    return { value: undefined, changed: [] };
  });
}

const BAD_SIGNIN_LINK =
  'This sign-in link is invalid, used or expired. Sign in with your password, or ask for a new link by trying again.';

/** Uses up a sign-in link (one statement: of two requests racing with it, one gets it). */
export async function useSignInLink(
  context: CommandContext,
  token: string,
): Promise<Outcome<Account>> {
  const used = await consumeToken(context.db, 'signin_link', token, context.now());
  const principal = used && principalOf(used);
  const row = principal && (await findAccountRow(context.db, principal));
  if (!principal || !row) throw new HttpError(400, BAD_SIGNIN_LINK, { token: BAD_SIGNIN_LINK });
  return { value: toAccount(principal.kind, row), changed: [] };
}

/**
 * The secret to set an authenticator up with (staff at their first sign-in, a customer from
 * Profile), kept until the first code confirms it.
 */
export async function setUpTwoFactor(
  context: CommandContext,
  account: Principal,
  email: string,
): Promise<Outcome<{ secret: string; otpauthUrl: string }>> {
  const value = await startEnrolment(context.db, context.config.encryption, account, email);
  return { value, changed: [] };
}

/** Two-factor on or off, in the audit log: a customer's under `user`, staff's under `staff`. */
const auditTwoFactor = (db: Db, account: AuditActor, on: boolean) =>
  recordAudit(db, account, {
    entityType: account.kind === 'admin' ? 'staff' : 'user',
    entityId: account.id,
    action: on ? 'two_factor_on' : 'two_factor_off',
    changes: { twoFactor: { from: !on, to: on } },
  });

/**
 * A code from the authenticator (or, once two-factor is on, a recovery code), at sign-in, at
 * step-up or to turn two-factor on: checked and used up in one transaction. The first right code
 * turns two-factor on in the same transaction, once however many arrive together: ten new
 * recovery codes (answered, to be shown once), an audit row, and the account's live change.
 */
export async function useSecondFactor(
  context: CommandContext,
  account: Principal & { email: string },
  code: string,
): Promise<Outcome<{ check: CodeCheck; wasOn: boolean; recoveryCodes?: string[] }>> {
  const now = context.now();
  return context.db.transaction(async (tx) => {
    const enrolment = await findTwoFactor(tx, context.config.encryption, account, { lock: true });
    if (!enrolment) return { value: { check: 'wrong', wasOn: false }, changed: [] };
    const wasOn = Boolean(enrolment.enabledAt);
    const check = /^[\d\s]+$/.test(code)
      ? await acceptCode(tx, enrolment, code, now)
      : enrolment.enabledAt && (await acceptRecoveryCode(tx, account, code, now))
        ? 'ok'
        : 'wrong';
    if (check !== 'ok' || wasOn) return { value: { check, wasOn }, changed: [] };
    const recoveryCodes = await newRecoveryCodes(tx, account);
    await auditTwoFactor(tx, account, true);
    return { value: { check, wasOn, recoveryCodes }, changed: [change([account.id], ['account'])] };
  });
}

/** Turns two-factor off (a customer, from Profile): audited, and the account's live change. */
export async function turnTwoFactorOff(
  context: CommandContext,
  account: Account,
): Promise<Outcome<void>> {
  return context.db.transaction(async (tx) => {
    if (!(await resetTwoFactor(tx, account))) return { value: undefined, changed: [] };
    await auditTwoFactor(tx, account, false);
    return { value: undefined, changed: [change([account.id], ['account'])] };
  });
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
        time: formatZonedDateTime(now),
        url: `${context.config.appUrl}/profile`,
      });
    }
    return { value: isNew, changed: [] };
  });
}
