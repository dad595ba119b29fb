import { z } from 'zod';

/** bcrypt reads at most 72 bytes; a longer password would be silently cut, so it is refused. */
export const PASSWORD_MAX_BYTES = 72;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_TOO_LONG = `Password must be at most ${PASSWORD_MAX_BYTES} bytes`;

const fitsBcrypt = (value: string) => new TextEncoder().encode(value).length <= PASSWORD_MAX_BYTES;

const email = z
  .string({ error: 'Invalid email address' })
  .trim()
  .max(254, 'Invalid email address')
  .pipe(z.email('Invalid email address'));

export const signInSchema = z.object({
  email,
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .refine(fitsBcrypt, PASSWORD_TOO_LONG),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const newPasswordSchema = z
  .string({ error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .refine(fitsBcrypt, PASSWORD_TOO_LONG);

const name = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(100, `${message.split(' ')[0]} name is too long`);

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
