/**
 * The sign-in and sign-up rules as plain functions (spec section 5), so the public pages check a
 * form without loading zod. The zod schemas in auth-schemas.ts use the same messages and limits.
 */
export const PASSWORD_MIN_LENGTH = 8;
/** Characters of any script (code points); hashing takes any length (docs/decisions/036). */
export const PASSWORD_MAX_LENGTH = 128;
export const PASSWORD_TOO_LONG = `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
export const PASSWORD_BLANK = 'Password cannot be only spaces';
/** The server also refuses the most common passwords (it holds the list, the page does not). */
export const PASSWORD_TOO_COMMON = 'This password is too common';
export const INVALID_EMAIL = 'Invalid email address';
export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 100;

/** zod's own email pattern (z.regexes.email); a unit test keeps the two the same. */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** Length in characters as a person counts them: an accented letter or an emoji is one. */
export const characterCount = (value: string) => [...value].length;
export const fitsPasswordLength = (value: string) => characterCount(value) <= PASSWORD_MAX_LENGTH;

type Problems<K extends string> = Partial<Record<K, string>>;

function emailProblem(email: string) {
  const trimmed = email.trim();
  return trimmed.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(trimmed)
    ? INVALID_EMAIL
    : undefined;
}

const nameProblem = (value: string, message: string) => {
  const trimmed = value.trim();
  if (trimmed === '') return message;
  return trimmed.length > NAME_MAX_LENGTH ? `${message.split(' ')[0]} name is too long` : undefined;
};

const defined = <K extends string>(problems: Record<K, string | undefined>) =>
  Object.fromEntries(Object.entries(problems).filter(([, v]) => v)) as Problems<K>;

export function signInProblems(values: { email: string; password: string }) {
  return defined({
    email: emailProblem(values.email),
    password:
      values.password.length < 1
        ? 'Password is required'
        : fitsPasswordLength(values.password)
          ? undefined
          : PASSWORD_TOO_LONG,
  });
}

/** A new password's problem (sign-up, reset, change), but for the server's list of common ones. */
export function newPasswordProblem(password: string) {
  const length = characterCount(password);
  if (length < PASSWORD_MIN_LENGTH) return PASSWORD_TOO_SHORT;
  if (length > PASSWORD_MAX_LENGTH) return PASSWORD_TOO_LONG;
  return password.trim() === '' ? PASSWORD_BLANK : undefined;
}

/** Profile: the names, with the sign-up form's rules. */
export function nameProblems(values: { firstName: string; lastName: string }) {
  return defined({
    firstName: nameProblem(values.firstName, 'First name is required'),
    lastName: nameProblem(values.lastName, 'Last name is required'),
  });
}

export function signUpProblems(values: {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}) {
  return defined({
    email: emailProblem(values.email),
    password: newPasswordProblem(values.password),
    firstName: nameProblem(values.firstName, 'First name is required'),
    lastName: nameProblem(values.lastName, 'Last name is required'),
  });
}
