/**
 * Where the staff sign-in returns to (issue 43, item 10): a signed-out visit to an `/admin…` link
 * goes to `/admin/login?next=<the link>`, and the sign-in comes back to it. Only a path inside the
 * portal is followed, never another site or a customer page.
 */
export const adminLoginPath = (link: string) =>
  `/admin/login?${new URLSearchParams({ next: link }).toString()}`;

/** The portal link to go to after a staff sign-in: `next` when it is one, else `/admin`. */
export function adminReturnPath(search: string): string {
  const next = new URLSearchParams(search).get('next') ?? '';
  const inPortal =
    (next === '/admin' || next.startsWith('/admin?') || next.startsWith('/admin/')) &&
    !next.startsWith('/admin/login') &&
    !next.includes('//') &&
    !next.includes('\\');
  return inPortal ? next : '/admin';
}
