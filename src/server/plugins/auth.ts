import type { FastifyRequest } from 'fastify';
import type { Account } from '../common/account';
import { HttpError } from '../common/http-error';
import { loadSession } from './session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account, loaded once per request by `currentAccount`. */
    account?: Account | null;
  }
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
