import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import {
  CAPABILITIES,
  type Capability,
  can,
  FORBIDDEN_ROLE,
  forbiddenRoleMessage,
} from '../../shared/staff-roles';
import type { Account } from '../common/account';
import { HttpError } from '../common/http-error';
import { accountNotActive } from '../common/standing';
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

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What an `/api/admin` route needs (src/shared/staff-roles.ts); the guard below enforces it. */
    capability?: Capability;
  }
}

/** The `/api/admin` routes open to anyone: staff sign-in itself. */
const OPEN_ADMIN_ROUTES = new Set(['/api/admin/signin', '/api/admin/signin/verify']);

/** A guard for one capability: 401 signed out, 403 for a customer, 403 `forbidden_role` for a role without it. */
export function requireCapability(capability: Capability): onRequestHookHandler {
  if (!(capability in CAPABILITIES)) throw new Error(`Unknown capability ${capability}`);
  return async (request) => {
    await requireStaff(request);
    const role = accountOf(request).staffRole;
    if (!can(role, capability)) {
      throw new HttpError(403, forbiddenRoleMessage(role ?? 'reviewer'), undefined, {
        code: FORBIDDEN_ROLE,
      });
    }
  };
}

/**
 * Every `/api/admin` route states the capability it needs in its config, in one place
 * (decision 076); this hook adds its guard. A route without one stops the app at start.
 */
export function registerStaffGuard(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/admin') || OPEN_ADMIN_ROUTES.has(route.url)) return;
    const capability = (route.config as { capability?: Capability } | undefined)?.capability;
    if (!capability) {
      throw new Error(
        `${route.method} ${route.url} names no capability (src/shared/staff-roles.ts)`,
      );
    }
    const guard = requireCapability(capability);
    route.onRequest = [guard, ...[route.onRequest ?? []].flat()];
  });
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

/**
 * Writes a suspended or closed customer may not make (cards, payment methods): 403 with
 * `code: 'account_suspended'` (decision 072). Behind requireCustomer.
 */
export async function requireActiveAccount(request: FastifyRequest): Promise<void> {
  const account = await currentAccount(request);
  if (!account) throw new HttpError(401, UNAUTHORIZED);
  if (account.standing !== 'active') throw accountNotActive(account.standing);
}

/** How long a password (or code) given again keeps a session fresh for payment-method changes. */
export const REAUTH_WINDOW_MS = 10 * 60 * 1000;
export const REAUTH_REQUIRED =
  'For your safety, enter your password again to change payment methods.';

/**
 * Payment-method changes need the password given within the last 10 minutes in this session
 * (at sign-in or through POST /api/reauth); else 401 with `code: 'reauth_required'`. Read from
 * the session's row, so every instance agrees at once.
 */
export async function requireRecentPassword(request: FastifyRequest): Promise<void> {
  const session = await loadSession(request);
  if (!session?.account) throw new HttpError(401, UNAUTHORIZED);
  const { db, sessionStore } = request.server;
  const at = await sessionStore.reauthAt(db, session.sid);
  const now = request.server.now();
  if (at === null || !(at <= now && now - at <= REAUTH_WINDOW_MS)) {
    throw new HttpError(401, REAUTH_REQUIRED, undefined, { code: 'reauth_required' });
  }
}
