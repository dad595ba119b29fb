import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from '../../../shared/partner-api';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 32 bytes (256 bits) need 43 base62 digits. */
const DIGITS = 43;

/** 32 random bytes in base62, left-padded to a fixed 43 digits. */
export function base62(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(DIGITS, '0');
}

/** A new key: `cb_live_` and 32 random bytes in base62. Shown once; only its hash is kept. */
export const newApiKey = () => `${API_KEY_PREFIX}${base62(randomBytes(32))}`;

/** What is stored and looked up: the key's SHA-256 (a 256-bit random key needs no slow hash). */
export const keyHashOf = (key: string) => createHash('sha256').update(key).digest('hex');

/** Whether a header value could be a key at all (no query for anything else). */
export const looksLikeKey = (key: string) =>
  key.startsWith(API_KEY_PREFIX) &&
  key.length === API_KEY_PREFIX.length + DIGITS &&
  /^[0-9A-Za-z]+$/.test(key.slice(API_KEY_PREFIX.length));
