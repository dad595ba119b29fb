import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EMAIL_PATTERN, signInProblems, signUpProblems } from './auth-rules';
import { signInSchema, signUpSchema } from './auth-schemas';

const zodProblems = (result: z.ZodSafeParseResult<unknown>) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

describe('the plain sign-in and sign-up rules', () => {
  it("use zod's email pattern", () => {
    expect(EMAIL_PATTERN.source).toBe(z.regexes.email.source);
  });

  it('give the same messages as the schemas the server checks with', () => {
    const signUps = [
      { email: '', password: '', firstName: '', lastName: '' },
      { email: 'not-an-email', password: 'short', firstName: ' ', lastName: 'L' },
      { email: ' a@b.co ', password: 'long enough', firstName: 'F', lastName: 'L' },
      { email: 'a@b.co', password: 'é'.repeat(40), firstName: 'F'.repeat(101), lastName: 'L' },
    ];
    for (const values of signUps) {
      expect(signUpProblems(values)).toEqual(zodProblems(signUpSchema.safeParse(values)));
      expect(signInProblems(values)).toEqual(zodProblems(signInSchema.safeParse(values)));
    }
  });
});
