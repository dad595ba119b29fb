import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { CurrentUser } from '../../shared/auth-schemas';
import { admins, users } from '../db/schema';
import { HttpError } from './errors';
import type { Principal } from './session';

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
  };
}

export function toCurrentUser({ kind: _kind, ...user }: Account): CurrentUser {
  return user;
}

/** Loads the session's account from the database; a session whose account is gone is dropped. */
export async function currentAccount(request: FastifyRequest): Promise<Account | null> {
  if (request.account !== undefined) return request.account;
  const principal = request.session?.principal;
  let account: Account | null = null;
  if (principal) {
    const db = request.server.db;
    const table = principal.kind === 'admin' ? admins : users;
    const [row] = await db.select().from(table).where(eq(table.id, principal.id));
    if (row) account = toAccount(principal.kind, row);
    else await request.session.destroy();
  }
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
