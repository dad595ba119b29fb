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
  it('refuses a password over 72 bytes even when it has fewer characters', () => {
    const result = signUpSchema.safeParse({
      email: 'a@b.co',
      password: 'é'.repeat(37),
      firstName: 'A',
      lastName: 'B',
    });
    expect(messages(result)).toEqual([PASSWORD_TOO_LONG]);
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
