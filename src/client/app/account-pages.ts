import { lazyPage } from './lazy-page';

/** The pages the account emails link to: signed in or not, they stand on their own. */
export const ResetPasswordPage = lazyPage(
  () => import('@/features/auth/reset-password-page'),
  'ResetPasswordPage',
);
export const VerifyEmailPage = lazyPage(
  () => import('@/features/auth/verify-email-page'),
  'VerifyEmailPage',
);
export const SignInLinkPage = lazyPage(
  () => import('@/features/auth/sign-in-link-page'),
  'SignInLinkPage',
);
export const StaffInvitationPage = lazyPage(
  () => import('@/features/auth/staff-invitation-page'),
  'StaffInvitationPage',
);
