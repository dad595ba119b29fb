interface NamedUser {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/** firstName plus lastName when both exist, otherwise the email (spec section 3). */
export function displayName(user: NamedUser): string {
  if (user.firstName && user.lastName) return `${user.firstName} ${user.lastName}`;
  return user.email ?? '';
}

/** Upper-cased first letters of both names, else of the email, else U (spec section 3). */
export function initials(user: NamedUser): string {
  if (user.firstName && user.lastName) {
    return `${user.firstName[0]}${user.lastName[0]}`.toUpperCase();
  }
  if (user.email) return user.email[0]!.toUpperCase();
  return 'U';
}
