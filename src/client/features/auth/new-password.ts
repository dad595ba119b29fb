import { newPasswordProblem } from '@shared/auth-rules';

/** The form's rules for a new password typed twice (the server checks the password again). */
export const newPasswordProblems = ({
  password,
  confirm,
}: {
  password: string;
  confirm: string;
}) => ({
  password: newPasswordProblem(password),
  confirm: password === confirm ? undefined : 'The two passwords are not the same',
});

/**
 * Where a refusal of a new-password form shows: one about the password (too common) on its
 * field, one about the emailed link (used, expired) for the whole page.
 */
export function showNewPasswordFailure(
  message: string,
  onPassword: (message: string) => void,
  onPage: (message: string) => void,
) {
  if (/password/i.test(message) && !/link/i.test(message)) onPassword(message);
  else onPage(message);
}
