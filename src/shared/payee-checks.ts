import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';

/**
 * Checks of payee details that catch a typo before money is sent to it (decision 061). Each is
 * pure: the shared zod schema runs them on the client and on the server alike.
 */

/**
 * An ABA routing number: 9 digits whose weighted sum 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9)
 * is a multiple of 10 (the American Bankers Association's check digit).
 */
export function isAbaRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

/** Looks like an IBAN (two letters, two check digits, then letters and digits), spaces allowed. */
export const looksLikeIban = (value: string) => /^[A-Za-z]{2}\d{2}[A-Za-z0-9 ]{8,}$/.test(value);

/**
 * The IBAN in its electronic form (upper case, no spaces) when its country, length, format and
 * mod-97 check digits are right (ibantools), else null.
 */
export function validIban(value: string): string | null {
  const iban = electronicFormatIBAN(value);
  return iban && isValidIBAN(iban) ? iban : null;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Bitcoin-alphabet base58 to bytes, or null for a character outside the alphabet. */
export function base58Decode(text: string): Uint8Array | null {
  let n = 0n;
  for (const ch of text) {
    const digit = BASE58.indexOf(ch);
    if (digit < 0) return null;
    n = n * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n % 256n));
    n /= 256n;
  }
  // Each leading '1' is a leading zero byte.
  for (const ch of text) {
    if (ch !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

/**
 * A TRON (TRC-20) address: base58check of 0x41 and a 20-byte account, the last 4 bytes being the
 * first 4 of sha256(sha256(the first 21)). 34 characters starting with T.
 */
export function isTronAddress(value: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(value)) return false;
  const bytes = base58Decode(value);
  if (bytes?.length !== 25 || bytes[0] !== 0x41) return false;
  const payload = bytes.subarray(0, 21);
  const check = sha256(sha256(payload));
  return bytes.subarray(21).every((byte, i) => byte === check[i]);
}

/**
 * An EVM (BEP-20) address: 0x and 40 hex digits. All lower or all upper case carries no
 * checksum; mixed case must be the EIP-55 checksum: a letter is upper case exactly where the
 * keccak-256 of the lower-case address has a nibble of 8 or more.
 */
export function isEvmAddress(value: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return false;
  const hex = value.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  return hex === eip55(hex);
}

/** The EIP-55 mixed-case form of 40 hex digits (without 0x). */
export function eip55(hex: string): string {
  const lower = hex.toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = '';
  for (let i = 0; i < lower.length; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i];
  }
  return out;
}

/** A Cash App $cashtag: $ (optional when typed) then a letter and up to 19 letters, digits, _ or -. */
export const isCashtag = (value: string) => /^\$?[A-Za-z][A-Za-z0-9_-]{0,19}$/.test(value);
