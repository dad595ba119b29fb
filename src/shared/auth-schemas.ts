import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  fitsBcrypt,
  INVALID_EMAIL,
  NAME_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
} from './auth-rules';

export { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH, PASSWORD_TOO_LONG } from './auth-rules';

const email = z
  .string({ error: INVALID_EMAIL })
  .trim()
  .max(EMAIL_MAX_LENGTH, INVALID_EMAIL)
  .pipe(z.email(INVALID_EMAIL));

export const signInSchema = z.object({
  email,
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .refine(fitsBcrypt, PASSWORD_TOO_LONG),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const newPasswordSchema = z
  .string({ error: PASSWORD_TOO_SHORT })
  .min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT)
  .refine(fitsBcrypt, PASSWORD_TOO_LONG);

const name = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(NAME_MAX_LENGTH, `${message.split(' ')[0]} name is too long`);

export const signUpSchema = z.object({
  email,
  password: newPasswordSchema,
  firstName: name('First name is required'),
  lastName: name('Last name is required'),
});
export type SignUpInput = z.infer<typeof signUpSchema>;

/** The current-user object every auth endpoint answers with (PRODUCT.md). */
export interface CurrentUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  isAdmin: boolean;
  createdAt: string;
}
