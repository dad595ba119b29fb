import type { FastifyRequest } from 'fastify';
import type { CurrentUser } from '../../shared/auth-schemas';
import { HttpError } from './errors';
import { loadSession, type Principal } from './session';

export interface Account extends CurrentUser {
  kind: Principal['kind'];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account, loaded once per request by `currentAccount`. */
    account?: Account | null;
  }
}

type AccountRow = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  createdAt: Date;
  profileImageUrl?: string | null;
  isAdmin?: boolean;
  emailVerifiedAt?: Date | null;
  emailNotifications?: boolean;
};

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
  };
}

export function toCurrentUser({ kind: _kind, ...user }: Account): CurrentUser {
  return user;
}

/**
 * The session's account: from memory for a session this process has seen (no query), else read
 * with the session in one statement. Null when signed out, or while a staff sign-in waits for its
 * second factor.
 */
export async function currentAccount(request: FastifyRequest): Promise<Account | null> {
  if (request.account !== undefined) return request.account;
  const account = (await loadSession(request))?.account ?? null;
  request.account = account;
  return account;
}

export const UNAUTHORIZED = 'Unauthorized';

export async function requireSignedIn(request: FastifyRequest): Promise<void> {
  if (!(await currentAccount(request))) throw new HttpError(401, UNAUTHORIZED);
}

export async function requireStaff(request: FastifyRequest): Promise<void> {
  const account = await currentAccount(request);
  if (!account) throw new HttpError(401, UNAUTHORIZED);
  if (!account.isAdmin) throw new HttpError(403, 'Admin access required');
}

/** Card and payment-method creation is for customers only: staff get 403 (PRODUCT.md). */
export async function requireCustomer(request: FastifyRequest): Promise<void> {
  const account = await currentAccount(request);
  if (!account) throw new HttpError(401, UNAUTHORIZED);
  if (account.isAdmin) throw new HttpError(403, 'Staff accounts cannot do this');
}

/** The signed-in account, for handlers behind one of the guards above. */
export function accountOf(request: FastifyRequest): Account {
  if (!request.account) throw new HttpError(401, UNAUTHORIZED);
  return request.account;
}
