import { createHash, randomInt } from 'node:crypto';
import { and, eq, isNull, lt, ne, notLike, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { PRODUCT_NAME } from '../../../shared/brand';
import type { Principal } from '../../common/account';
import { HttpError } from '../../common/http-error';
import { secretChecked } from '../../common/passwords';
import type { Db } from '../../db/client';
import { recoveryCodes, twoFactor } from '../../db/schema';
import {
  DecryptionError,
  isSealedText,
  type Keyring,
  openText,
  sealedTextKeyId,
  sealText,
} from '../../encryption';

/**
 * The second factor of accounts with staff rights (docs/decisions/037): TOTP as RFC 6238 and
 * every authenticator app use it (SHA-1, 6 digits, 30 s), a code accepted for the step before and
 * after the current one (clocks drift), each step's code good once, and one-time recovery codes.
 */
const PERIOD_S = 30;
const totpOf = (secret: string, label = '') =>
  new TOTP({
    issuer: PRODUCT_NAME,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
  });

export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** The code's form without spaces, dashes or case: "ABCDE-12345" and "abcde 12345" are one. */
const normalized = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const hashOf = (code: string) => createHash('sha256').update(normalized(code)).digest('hex');

/** An enrolment as the code checks use it: the secret opened. */
export type Enrolment = typeof twoFactor.$inferSelect;

/** What the secret is sealed as: a value sealed for another column does not open here. */
const PURPOSE = 'two_factor.secret';

/**
 * The enrolment with its secret opened (a secret still in clear, from before 074, as it is).
 * `lock`: held until the caller's transaction ends, so that a code turns two-factor on once.
 */
export async function findTwoFactor(
  db: Db,
  keyring: Keyring,
  account: Principal,
  { lock = false } = {},
): Promise<Enrolment | undefined> {
  const query = db
    .select()
    .from(twoFactor)
    .where(and(eq(twoFactor.accountKind, account.kind), eq(twoFactor.accountId, account.id)));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) return undefined;
  return { ...row, secret: openSecret(keyring, row.secret) };
}

function openSecret(keyring: Keyring, stored: string) {
  if (!isSealedText(stored)) return stored;
  try {
    return openText(keyring, PURPOSE, stored);
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error;
    // The operator's to fix (a key missing from the configuration, or an altered row); nobody
    // signs in with a secret that cannot be read, and no new one is issued in its place.
    throw new HttpError(503, TWO_FACTOR_UNREADABLE);
  }
}

export const TWO_FACTOR_UNREADABLE =
  'Two-factor sign-in is unavailable for this account right now: the server cannot read its authenticator secret. An operator must check the data key (DATA_ENCRYPTION_KEY).';

/**
 * The secret to set the authenticator up with, made at the first sign-in and kept until the first
 * code confirms it (a second try before that shows the same QR code). Stored sealed.
 */
export async function startEnrolment(db: Db, keyring: Keyring, account: Principal, email: string) {
  const secret = new Secret({ size: 20 }).base32;
  await db
    .insert(twoFactor)
    .values({
      accountKind: account.kind,
      accountId: account.id,
      secret: sealText(keyring, PURPOSE, secret),
    })
    .onConflictDoNothing();
  const row = (await findTwoFactor(db, keyring, account))!;
  return { secret: row.secret, otpauthUrl: totpOf(row.secret, email).toString() };
}

/**
 * Seals, under the current key, every secret that is not sealed with it: the clear ones left from
 * before decision 074 (`onlyClear`, run at every start), or also those under an older key (npm run
 * keys:rotate). A batch at a time; each row is updated only while it still holds the value read,
 * so two instances doing it at once, or a run interrupted and started again, seal each row once.
 * Answers how many rows it sealed.
 */
export async function sealTwoFactorSecrets(
  db: Db,
  keyring: Keyring,
  { onlyClear = false, batch = 200 } = {},
): Promise<number> {
  let sealed = 0;
  // Rows skipped as unreadable (an unknown key) are not read again in this run.
  const skipped = new Set<string>();
  for (;;) {
    const rows = await db
      .select()
      .from(twoFactor)
      .where(
        onlyClear
          ? notLike(twoFactor.secret, 'v1.%')
          : or(
              notLike(twoFactor.secret, 'v1.%'),
              ne(sql`split_part(${twoFactor.secret}, '.', 2)`, keyring.current.id),
            ),
      )
      .limit(batch + skipped.size);
    const todo = rows.filter((r) => !skipped.has(`${r.accountKind}:${r.accountId}`));
    if (todo.length === 0) {
      if (skipped.size === 0) return sealed;
      throw new Error(
        `${skipped.size} two-factor secret(s) are sealed under a key that is not configured: add it to DATA_ENCRYPTION_PREVIOUS_KEYS`,
      );
    }
    for (const row of todo) {
      const keyId = sealedTextKeyId(row.secret);
      if (keyId !== null && !keyring.byId.has(keyId)) {
        skipped.add(`${row.accountKind}:${row.accountId}`);
        continue;
      }
      const resealed = sealText(keyring, PURPOSE, openSecret(keyring, row.secret));
      const done = await db
        .update(twoFactor)
        .set({ secret: resealed })
        .where(
          and(
            eq(twoFactor.accountKind, row.accountKind),
            eq(twoFactor.accountId, row.accountId),
            eq(twoFactor.secret, row.secret),
          ),
        )
        .returning({ id: twoFactor.accountId });
      sealed += done.length;
    }
  }
}

/** The current code of `secret` at `now`: what an authenticator app shows (tests use it too). */
export const codeAt = (secret: string, now: number) => totpOf(secret).generate({ timestamp: now });

export type CodeCheck = 'ok' | 'replayed' | 'wrong';

/**
 * Checks a 6-digit code and, when it is right, records its step in the same statement, so a code
 * (or any older one) is never accepted twice, even by two requests at once. The first right code
 * also completes the enrolment.
 */
export async function acceptCode(
  db: Db,
  enrolment: Enrolment,
  code: string,
  now: number,
): Promise<CodeCheck> {
  if (secretChecked.hasSubscribers) secretChecked.publish({ kind: 'code' });
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return 'wrong';
  const delta = totpOf(enrolment.secret).validate({ token, timestamp: now, window: 1 });
  if (delta === null) return 'wrong';
  const step = Math.floor(now / 1000 / PERIOD_S) + delta;
  const updated = await db
    .update(twoFactor)
    .set({
      lastStep: step,
      enabledAt: sql`coalesce(${twoFactor.enabledAt}, ${new Date(now)})`,
    })
    .where(
      and(
        eq(twoFactor.accountKind, enrolment.accountKind),
        eq(twoFactor.accountId, enrolment.accountId),
        or(isNull(twoFactor.lastStep), lt(twoFactor.lastStep, step)),
      ),
    )
    .returning({ step: twoFactor.lastStep });
  return updated.length === 1 ? 'ok' : 'replayed';
}

/** Uses up one recovery code of the account: true when it was one and unused. */
export async function acceptRecoveryCode(db: Db, account: Principal, code: string, now: number) {
  if (secretChecked.hasSubscribers) secretChecked.publish({ kind: 'recovery-code' });
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date(now) })
    .where(
      and(
        eq(recoveryCodes.accountKind, account.kind),
        eq(recoveryCodes.accountId, account.id),
        eq(recoveryCodes.codeHash, hashOf(code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used.length === 1;
}

/** Ten new recovery codes ("k7m2p-xq9rt"), replacing any earlier ones; only hashes are kept. */
export async function newRecoveryCodes(db: Db, account: Principal): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from(
      { length: 10 },
      () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
    ).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  await db.transaction(async (tx) => {
    await tx
      .delete(recoveryCodes)
      .where(
        and(eq(recoveryCodes.accountKind, account.kind), eq(recoveryCodes.accountId, account.id)),
      );
    await tx.insert(recoveryCodes).values(
      codes.map((code) => ({
        accountKind: account.kind,
        accountId: account.id,
        codeHash: hashOf(code),
      })),
    );
  });
  return codes;
}

/**
 * Forgets the account's authenticator and recovery codes: the next sign-in enrols again. Answers
 * whether two-factor was on.
 */
export async function resetTwoFactor(db: Db, account: Principal): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(twoFactor)
      .where(and(eq(twoFactor.accountKind, account.kind), eq(twoFactor.accountId, account.id)))
      .returning({ enabledAt: twoFactor.enabledAt });
    await tx
      .delete(recoveryCodes)
      .where(
        and(eq(recoveryCodes.accountKind, account.kind), eq(recoveryCodes.accountId, account.id)),
      );
    return !!removed?.enabledAt;
  });
}
