import type { CurrentUser } from '../../shared/auth-schemas';
import { isStaffRole } from '../../shared/staff-roles';

/** Whose a session, a token or a count is: a customer's (`user`) or a staff member's (`admin`). */
export interface Principal {
  kind: 'user' | 'admin';
  id: string;
}

export interface Account extends CurrentUser {
  kind: Principal['kind'];
}

export type AccountRow = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  createdAt: Date;
  profileImageUrl?: string | null;
  isAdmin?: boolean;
  emailVerifiedAt?: Date | null;
  emailNotifications?: boolean;
  standing?: string;
  verificationLevel?: number;
  /** A staff row's role (src/shared/staff-roles.ts). */
  role?: string;
};

export type Standing = CurrentUser['standing'];
const STANDINGS: Standing[] = ['active', 'suspended', 'closed'];
const standingOf = (value: string | undefined): Standing =>
  STANDINGS.includes(value as Standing) ? (value as Standing) : 'active';

export function toAccount(kind: Principal['kind'], row: AccountRow): Account {
  return {
    kind,
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    profileImageUrl: row.profileImageUrl ?? null,
    // Staff accounts, and customer rows flagged isAdmin, are staff (PRODUCT.md).
    isAdmin: kind === 'admin' || row.isAdmin === true,
    createdAt: row.createdAt.toISOString(),
    // Staff accounts are made by an operator for a known address.
    emailVerified: kind === 'admin' || !!row.emailVerifiedAt,
    emailNotifications: kind === 'user' && row.emailNotifications !== false,
    standing: kind === 'user' ? standingOf(row.standing) : 'active',
    verificationLevel: kind === 'user' ? (row.verificationLevel ?? 0) : 0,
    // A staff row's role; a customer row flagged isAdmin counts as an owner (decision 076).
    ...(kind === 'admin'
      ? { staffRole: isStaffRole(row.role) ? row.role : 'reviewer' }
      : row.isAdmin === true
        ? { staffRole: 'owner' as const }
        : {}),
  };
}

export function toCurrentUser({ kind: _kind, ...user }: Account): CurrentUser {
  return user;
}
