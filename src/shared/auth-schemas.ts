import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  fitsPasswordLength,
  INVALID_EMAIL,
  NAME_MAX_LENGTH,
  newPasswordProblem,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
} from './auth-rules';
import { STAFF_ROLES } from './staff-roles';

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_TOO_LONG } from './auth-rules';

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
    .refine(fitsPasswordLength, PASSWORD_TOO_LONG),
});
export type SignInInput = z.infer<typeof signInSchema>;

/** A new password: length in characters and not blank (the server adds the common-list check). */
export const newPasswordSchema = z
  .string({ error: PASSWORD_TOO_SHORT })
  .superRefine((value, ctx) => {
    const problem = newPasswordProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

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

/** POST /api/password/forgot: the same answer whether or not the address has an account. */
export const forgotPasswordSchema = z.object({ email });

/** POST /api/password/reset, with the token from the emailed link. */
const resetTokenSchema = z.string({ error: 'This link is not valid' }).min(1).max(200);

export const resetPasswordSchema = z.object({
  token: resetTokenSchema,
  password: newPasswordSchema,
});

/** POST /api/password/reset/check: whether a reset link still works, before a password is typed. */
export const checkResetLinkSchema = z.object({ token: resetTokenSchema });

/** POST /api/password/change: the current password proves it is the owner, not a borrowed tab. */
/** POST /api/account/email: a new address for the account, confirmed from a link sent to it. */
export const changeEmailSchema = z.object({
  email,
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(1000, 'Password is incorrect'),
});
export type ChangeEmailInput = z.infer<typeof changeEmailSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .min(1, 'Current password is required')
    .max(1000, 'Current password is incorrect'),
  newPassword: newPasswordSchema,
});

/** POST /api/email/verify. */
/** The body of a page an emailed link opens: the link's token. */
const linkTokenSchema = z.object({
  token: z.string({ error: 'This link is not valid' }).min(1).max(200),
});
export const verifyEmailSchema = linkTokenSchema;
export const signInLinkSchema = linkTokenSchema;

/** PATCH /api/profile: names (both kinds of account) and the email switch (customers). */
export const updateProfileSchema = z.object({
  firstName: name('First name is required').optional(),
  lastName: name('Last name is required').optional(),
  emailNotifications: z.boolean({ error: 'emailNotifications must be true or false' }).optional(),
});
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

/** POST /api/admin/signin/verify: a 6-digit code from the authenticator, or a recovery code. */
export const twoFactorCodeSchema = z.object({
  code: z
    .string({ error: 'Enter the 6-digit code from your authenticator app' })
    .trim()
    .min(1, 'Enter the 6-digit code from your authenticator app')
    .max(40, 'That code is not valid'),
});

/** What POST /api/admin/signin answers once the password is right: the second factor is next. */
export interface TwoFactorChallenge {
  twoFactorRequired: true;
  /** First sign-in only: the authenticator to set up (a QR code of this URL, and its secret). */
  otpauthUrl?: string;
  secret?: string;
}
/** The current-user object every auth endpoint answers with (PRODUCT.md). */
export const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  isAdmin: z.boolean(),
  createdAt: z.string(),
  /** Customers: whether they opened the link mailed to their address (staff: always true). */
  emailVerified: z.boolean(),
  /** Customers: whether staff decisions also come by email (staff: false). */
  emailNotifications: z.boolean(),
  /** Customers: active, suspended (cannot sell or be paid) or closed (decision 072). */
  standing: z.enum(['active', 'suspended', 'closed']),
  /** Customers: 0, 1 (identity checked) or 2 (address checked); staff: 0. */
  verificationLevel: z.number(),
  /** Staff only: their role (src/shared/staff-roles.ts, decision 076). */
  staffRole: z.enum(STAFF_ROLES).optional(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/**
 * POST /api/reauth (decision 072): the password again, or (two-factor on) a code from the
 * authenticator; the session may then change payment methods for 10 minutes.
 */
export const reauthSchema = z
  .object({
    password: z
      .string({ error: 'Password must be text' })
      .min(1, 'Enter your password')
      .refine(fitsPasswordLength, PASSWORD_TOO_LONG)
      .optional(),
    code: z
      .string({ error: 'Code must be text' })
      .trim()
      .min(1, 'Enter the 6-digit code from your authenticator app')
      .max(40, 'That code is not valid')
      .optional(),
  })
  .refine((v) => v.password !== undefined || v.code !== undefined, {
    message: 'Enter your password',
    path: ['password'],
  });
