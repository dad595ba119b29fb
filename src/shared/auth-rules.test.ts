import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EMAIL_PATTERN, signInProblems, signUpProblems } from './auth-rules';
import { signInSchema, signUpSchema } from './auth-schemas';

const zodProblems = (result: z.ZodSafeParseResult<unknown>) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

describe('the plain sign-in and sign-up rules', () => {
  it("accept the emails zod's pattern accepts, and only those", () => {
    const samples = [
      'a@b.co',
      "o'neil+tag@mail.example.com",
      'first.last@sub-domain.example.org',
      '.dot@example.com',
      'dots..twice@example.com',
      'trailing.@example.com',
      'no-at.example.com',
      'a@-dash.com',
      'a@example.c',
      'a b@example.com',
      'ünï@example.com',
    ];
    for (const sample of samples) {
      expect(EMAIL_PATTERN.test(sample), sample).toBe(z.regexes.email.test(sample));
    }
  });

  it('give the same messages as the schemas the server checks with', () => {
    const signUps = [
      { email: '', password: '', firstName: '', lastName: '' },
      { email: 'not-an-email', password: 'short', firstName: ' ', lastName: 'L' },
      { email: ' a@b.co ', password: 'long enough', firstName: 'F', lastName: 'L' },
      { email: 'a@b.co', password: 'é'.repeat(140), firstName: 'F'.repeat(101), lastName: 'L' },
      { email: 'a@b.co', password: '         ', firstName: 'F', lastName: 'L' },
    ];
    for (const values of signUps) {
      expect(signUpProblems(values)).toEqual(zodProblems(signUpSchema.safeParse(values)));
      expect(signInProblems(values)).toEqual(zodProblems(signInSchema.safeParse(values)));
    }
  });
});
