import { createHmac } from 'node:crypto';
import { channel } from 'node:diagnostics_channel';
import bcrypt from 'bcrypt';
import commonPasswords from 'fxa-common-password-list';
import { newPasswordProblem, PASSWORD_TOO_COMMON } from '../../shared/auth-rules';
import { badRequest } from './http-error';

/**
 * Password hashes (docs/decisions/036). bcrypt reads only 72 bytes, so the password is first
 * reduced to 44 ASCII characters: base64 of HMAC-SHA256 keyed with a fixed label over its NFKC
 * form. Any length and any script then count whole. Stored as `cb1$` + the bcrypt hash; hashes
 * made before (plain bcrypt, `$2b$…`) still verify, and are replaced at the next sign-in.
 */
const SCHEME = 'cb1$';
const PREHASH_KEY = 'cardbridge password v1';

const prehash = (password: string) =>
  createHmac('sha256', PREHASH_KEY).update(password.normalize('NFKC')).digest('base64');

export async function hashPassword(password: string, cost: number): Promise<string> {
  return SCHEME + (await bcrypt.hash(prehash(password), cost));
}

/** True when `stored` was made before the current scheme: replace it once the password is known. */
export const isLegacyHash = (stored: string) => !stored.startsWith(SCHEME);

const LEGACY_MAX_BYTES = 72;

function verify(password: string, stored: string): Promise<boolean> {
  if (!isLegacyHash(stored)) return bcrypt.compare(prehash(password), stored.slice(SCHEME.length));
  // Legacy hashes were only made for passwords of up to 72 bytes: longer input never matches
  // (bcrypt would compare just its first 72 bytes).
  if (Buffer.byteLength(password) > LEGACY_MAX_BYTES) return Promise.resolve(false);
  return bcrypt.compare(password, stored);
}

/**
 * Published each time a secret is actually checked (a password here, a code in two-factor.ts):
 * `{ kind: 'password' | 'code' | 'recovery-code' }`. Nothing listens in production; the tests
 * count what a limit let through to the check.
 */
export const secretChecked = channel('cardbridge:secret-checked');

/** A hash to compare against when no account matches, so both paths take the same time. */
let dummyHash: Promise<string> | undefined;
export async function checkPassword(password: string, stored: string | undefined, cost: number) {
  dummyHash ??= hashPassword('cardbridge-timing-equaliser', cost);
  if (secretChecked.hasSubscribers) secretChecked.publish({ kind: 'password' });
  const ok = await verify(password, stored ?? (await dummyHash));
  return ok && stored !== undefined;
}

/** One of the most common passwords (the 50,000 most common of 8 characters or more, any case). */
export const isCommonPassword = (password: string) =>
  commonPasswords.test(password.trim().toLowerCase());

/**
 * The rules for every new password (sign-up, reset, change, admin:create): its length in
 * characters, not blank, not a common one. Throws a 400 naming `field`.
 */
export function assertGoodPassword(password: string, field: string) {
  const problem =
    newPasswordProblem(password) ?? (isCommonPassword(password) ? PASSWORD_TOO_COMMON : undefined);
  if (problem) throw badRequest(problem, field);
}
