/**
 * The customer pages behind sign-in (app/signed-in-app.tsx routes them). Signed out, a visit to
 * one opens the sign-in dialog and, once signed in, shows that page with its query: a link in an
 * email lands where it points.
 */
export const SIGNED_IN_PATHS = [
  '/dashboard',
  '/upload',
  '/history',
  '/statement',
  '/payment-methods',
  '/chat',
  '/support',
  '/profile',
] as const;

export const needsSignIn = (path: string) =>
  SIGNED_IN_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
