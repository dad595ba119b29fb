import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (docs/decisions/074): AES-256-GCM under DATA_ENCRYPTION_KEY. Every sealed value
 * names the key that sealed it, so a rotation can tell what is still under an old key, and names
 * what it is (the associated data), so a value copied into another column does not open there.
 *
 * A sealed text is one string: `v1.<key id>.<iv>.<tag>.<ciphertext>`, base64url parts.
 * A sealed document is bytes: `CBE1`, the key id (8 bytes), the iv (12), the tag (16), ciphertext.
 */

export interface DataKey {
  /** The first 8 bytes of the key's SHA-256, in hex: says which key, reveals nothing of it. */
  id: string;
  key: Buffer;
}

/** The key new values are sealed with, and every key a value may still be sealed with. */
export interface Keyring {
  current: DataKey;
  /** By id: the current key and the previous ones a rotation has not yet replaced. */
  byId: ReadonlyMap<string, DataKey>;
}

export class DecryptionError extends Error {}

const TEXT_VERSION = 'v1';
const DOCUMENT_MAGIC = Buffer.from('CBE1');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ID_BYTES = 8;

/** A key from its 64 hex characters (or 43/44 base64 characters): 32 bytes either way. */
export function parseDataKey(text: string): DataKey | null {
  const value = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(value)
      ? Buffer.from(value, 'base64')
      : null;
  if (key?.length !== 32) return null;
  return {
    id: createHash('sha256')
      .update(key)
      .digest('hex')
      .slice(0, ID_BYTES * 2),
    key,
  };
}

/** A new random key, as DATA_ENCRYPTION_KEY takes it (64 hex characters). */
export const newDataKeyText = () => randomBytes(32).toString('hex');

export function keyringOf(current: DataKey, previous: DataKey[] = []): Keyring {
  const byId = new Map<string, DataKey>();
  for (const key of [current, ...previous]) byId.set(key.id, key);
  return { current, byId };
}

const aad = (purpose: string) => Buffer.from(`cardbridge:${purpose}`);

/** Seals a short text (a TOTP secret) as one printable string. */
export function sealText(keyring: Keyring, purpose: string, plain: string): string {
  const { id, key } = keyring.current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(purpose));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [TEXT_VERSION, id, iv, cipher.getAuthTag(), body]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export const isSealedText = (value: string) => value.startsWith(`${TEXT_VERSION}.`);

/** The key id a sealed text names, or null for a value that is not sealed (a clear one). */
export function sealedTextKeyId(value: string): string | null {
  if (!isSealedText(value)) return null;
  return value.split('.')[1] ?? null;
}

/** Opens a sealed text; throws DecryptionError when the key is unknown or the value altered. */
export function openText(keyring: Keyring, purpose: string, sealed: string): string {
  const [version, id, iv, tag, body, ...rest] = sealed.split('.');
  if (
    version !== TEXT_VERSION ||
    !id ||
    iv === undefined ||
    !tag ||
    body === undefined ||
    rest.length
  ) {
    throw new DecryptionError('not a sealed value');
  }
  return decipher(keyring, purpose, id, b64(iv), b64(tag), b64(body)).toString('utf8');
}

const b64 = (part: string) => Buffer.from(part, 'base64url');

/**
 * Seals a document (an identity document, a card's code) as bytes. Documents are at most a few
 * megabytes, so the whole is sealed at once: GCM's tag covers all of it before a byte is used.
 */
export function sealDocument(keyring: Keyring, purpose: string, plain: Buffer): Buffer {
  const { id, key } = keyring.current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(purpose));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([DOCUMENT_MAGIC, Buffer.from(id, 'hex'), iv, cipher.getAuthTag(), body]);
}

const HEADER_BYTES = DOCUMENT_MAGIC.length + ID_BYTES + IV_BYTES + TAG_BYTES;

/** The key id a sealed document names, or null when the bytes are not a sealed document. */
export function sealedDocumentKeyId(sealed: Buffer): string | null {
  if (sealed.length < HEADER_BYTES || !sealed.subarray(0, 4).equals(DOCUMENT_MAGIC)) return null;
  return sealed.subarray(4, 4 + ID_BYTES).toString('hex');
}

export function openDocument(keyring: Keyring, purpose: string, sealed: Buffer): Buffer {
  const id = sealedDocumentKeyId(sealed);
  if (!id) throw new DecryptionError('not a sealed document');
  const ivAt = DOCUMENT_MAGIC.length + ID_BYTES;
  const iv = sealed.subarray(ivAt, ivAt + IV_BYTES);
  const tag = sealed.subarray(ivAt + IV_BYTES, HEADER_BYTES);
  return decipher(keyring, purpose, id, iv, tag, sealed.subarray(HEADER_BYTES));
}

function decipher(
  keyring: Keyring,
  purpose: string,
  id: string,
  iv: Buffer,
  tag: Buffer,
  body: Buffer,
): Buffer {
  const dataKey = keyring.byId.get(id);
  if (!dataKey) {
    throw new DecryptionError(
      `sealed under key ${id}, which is not configured (DATA_ENCRYPTION_KEY or DATA_ENCRYPTION_PREVIOUS_KEYS)`,
    );
  }
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new DecryptionError('malformed');
  try {
    const d = createDecipheriv('aes-256-gcm', dataKey.key, iv).setAAD(aad(purpose));
    d.setAuthTag(tag);
    return Buffer.concat([d.update(body), d.final()]);
  } catch {
    throw new DecryptionError('the value was altered, or sealed for something else');
  }
}
