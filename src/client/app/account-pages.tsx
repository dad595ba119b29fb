import { Route } from 'wouter';
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

/** Their routes, the same signed in or not (a Switch takes them among its own). */
export const ACCOUNT_PAGE_ROUTES = [
  <Route key="reset" path="/reset-password" component={ResetPasswordPage} />,
  <Route key="verify" path="/verify-email" component={VerifyEmailPage} />,
  <Route key="link" path="/sign-in-link" component={SignInLinkPage} />,
  <Route key="invite" path="/staff-invitation" component={StaffInvitationPage} />,
];
