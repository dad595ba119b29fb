import { describe, expect, it } from 'vitest';
import { PASSWORD_TOO_LONG, signInSchema, signUpSchema } from './auth-schemas';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe('signUpSchema', () => {
  it('carries the spec messages for every field', () => {
    const result = signUpSchema.safeParse({
      email: 'nope',
      password: 'short',
      firstName: ' ',
      lastName: '',
    });
    expect(messages(result)).toEqual([
      'Invalid email address',
      'Password must be at least 8 characters',
      'First name is required',
      'Last name is required',
    ]);
  });
  const withPassword = (password: string) =>
    signUpSchema.safeParse({ email: 'a@b.co', password, firstName: 'A', lastName: 'B' });
  it('counts characters of any script, not bytes: 64 × é (128 bytes) is a good password', () => {
    expect(messages(withPassword('é'.repeat(64)))).toEqual([]);
    expect(messages(withPassword('密码'.repeat(32)))).toEqual([]);
    expect(messages(withPassword('🔑'.repeat(8)))).toEqual([]);
    expect(messages(withPassword('🔑'.repeat(7)))).toEqual([
      'Password must be at least 8 characters',
    ]);
  });
  it('refuses a password over 128 characters, and one of spaces only', () => {
    expect(messages(withPassword('x'.repeat(129)))).toEqual([PASSWORD_TOO_LONG]);
    expect(messages(withPassword(' '.repeat(8)))).toEqual(['Password cannot be only spaces']);
    expect(messages(withPassword('\t \u00a0 \u3000   '))).toEqual([
      'Password cannot be only spaces',
    ]);
  });
});

describe('signInSchema', () => {
  it('needs a password of at least one character', () => {
    expect(messages(signInSchema.safeParse({ email: 'a@b.co', password: '' }))).toEqual([
      'Password is required',
    ]);
  });
  it('trims the email', () => {
    expect(signInSchema.parse({ email: ' a@b.co ', password: 'x' }).email).toBe('a@b.co');
  });
});
