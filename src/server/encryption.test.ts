import { describe, expect, it } from 'vitest';
import {
  DecryptionError,
  keyringOf,
  newDataKeyText,
  openDocument,
  openText,
  parseDataKey,
  sealDocument,
  sealedDocumentKeyId,
  sealedTextKeyId,
  sealText,
} from './encryption';

const key = () => parseDataKey(newDataKeyText())!;

describe('data encryption (AES-256-GCM)', () => {
  it('seals a text that opens with its key and purpose only', () => {
    const keyring = keyringOf(key());
    const sealed = sealText(keyring, 'test.secret', 'JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(sealedTextKeyId(sealed)).toBe(keyring.current.id);
    expect(sealText(keyring, 'test.secret', 'JBSWY3DPEHPK3PXP')).not.toBe(sealed);
    expect(openText(keyring, 'test.secret', sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(() => openText(keyring, 'other.column', sealed)).toThrow(DecryptionError);
    expect(() => openText(keyringOf(key()), 'test.secret', sealed)).toThrow(/not configured/);
    expect(() => openText(keyring, 'test.secret', `${sealed.slice(0, -2)}AA`)).toThrow(
      DecryptionError,
    );
  });

  it('opens a value sealed under a previous key during a rotation', () => {
    const old = key();
    const sealed = sealText(keyringOf(old), 'p', 'secret');
    const rotating = keyringOf(key(), [old]);
    expect(openText(rotating, 'p', sealed)).toBe('secret');
    expect(sealedTextKeyId(sealText(rotating, 'p', 'secret'))).toBe(rotating.current.id);
  });

  it('seals documents as bytes', () => {
    const keyring = keyringOf(key());
    const document = Buffer.from('%PDF-1.7 an identity document');
    const sealed = sealDocument(keyring, 'verification.document', document);
    expect(sealed.includes(document)).toBe(false);
    expect(sealedDocumentKeyId(sealed)).toBe(keyring.current.id);
    expect(openDocument(keyring, 'verification.document', sealed).equals(document)).toBe(true);
    sealed[sealed.length - 1]! ^= 1;
    expect(() => openDocument(keyring, 'verification.document', sealed)).toThrow(DecryptionError);
    expect(() => openDocument(keyring, 'x', document)).toThrow(/not a sealed document/);
  });

  it('takes 32-byte keys only', () => {
    expect(parseDataKey('ab'.repeat(32))?.id).toMatch(/^[0-9a-f]{16}$/);
    expect(parseDataKey('ab'.repeat(31))).toBeNull();
    expect(parseDataKey('a short passphrase')).toBeNull();
  });
});
