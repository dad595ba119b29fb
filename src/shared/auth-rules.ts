/**
 * The sign-in and sign-up rules as plain functions (spec section 5), so the public pages check a
 * form without loading zod. The zod schemas in auth-schemas.ts use the same messages and limits.
 */
export const PASSWORD_MAX_BYTES = 72;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_TOO_LONG = `Password must be at most ${PASSWORD_MAX_BYTES} bytes`;
export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
export const INVALID_EMAIL = 'Invalid email address';
export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 100;

/** zod's own email pattern (z.regexes.email); a unit test keeps the two the same. */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** bcrypt reads at most 72 bytes; a longer password would be silently cut, so it is refused. */
export const fitsBcrypt = (value: string) =>
  new TextEncoder().encode(value).length <= PASSWORD_MAX_BYTES;

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
        : fitsBcrypt(values.password)
          ? undefined
          : PASSWORD_TOO_LONG,
  });
}

export function newPasswordProblem(password: string) {
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_TOO_SHORT;
  return fitsBcrypt(password) ? undefined : PASSWORD_TOO_LONG;
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
