import { clearSignedInHint, isSignedOutOnPurpose } from './auth';
import { rememberReturnPath } from './drafts';
import { toast } from './toast';

/** Spec section 9: the redirect after an auth failure waits 500 ms. */
export const AUTH_REDIRECT_DELAY_MS = 500;

let redirecting = false;

/** Spec section 8: toast 'Unauthorized', then go to /api/login after 500 ms. */
export function handleUnauthorized() {
  // Signed out on purpose: the pages still on screen may ask once more, and hear 401.
  if (redirecting || isSignedOutOnPurpose()) return;
  redirecting = true;
  clearSignedInHint();
  // The sign-in brings this tab back to its page, where its drafts wait (issue 43, item 18).
  rememberReturnPath();
  toast({
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
    variant: 'destructive',
  });
  setTimeout(() => {
    window.location.href = '/api/login';
  }, AUTH_REDIRECT_DELAY_MS);
}
