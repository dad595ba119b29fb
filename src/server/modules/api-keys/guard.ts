import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import {
  type ApiKeyScope,
  INSUFFICIENT_SCOPE,
  INVALID_API_KEY,
  INVALID_API_KEY_MESSAGE,
  insufficientScopeMessage,
} from '../../../shared/partner-api';
import { toAccount } from '../../common/account';
import { HttpError } from '../../common/http-error';
import type { Limits } from '../../config';
import { MINUTE } from '../../plugins/rate-limit';
import { touchApiKey as touchTheKey } from './commands';
import { keyHashOf, looksLikeKey } from './keys';
import { findLiveKey } from './queries';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key a `/api/v1` request was sent with, once its guard has accepted it. */
    apiKey?: { id: string; scopes: ApiKeyScope[] };
  }
}

/** Last use is written at most this often per key (and whenever the address changes). */
const TOUCH_EVERY_MS = MINUTE;

const invalidKey = () =>
  new HttpError(401, INVALID_API_KEY_MESSAGE, undefined, { code: INVALID_API_KEY });

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * The guard of every `/api/v1` route: `Authorization: Bearer <key>` (never the session cookie),
 * a key neither revoked nor expired, of a seller not deleted; the key acts as its seller with
 * only its scopes (403 `insufficient_scope`). The key is read from the database on each request,
 * so its revocation holds on every instance at once (decision 125).
 */
export function requireApiKey(scope: ApiKeyScope | null): onRequestHookHandler {
  return async (request) => {
    const key = bearerOf(request);
    if (!key || !looksLikeKey(key)) throw invalidKey();
    const app = request.server;
    const found = await findLiveKey(app.db, keyHashOf(key));
    const now = app.now();
    if (!found || (found.key.expiresAt && found.key.expiresAt.getTime() <= now)) {
      throw invalidKey();
    }
    const scopes = found.key.scopes as ApiKeyScope[];
    request.apiKey = { id: found.key.id, scopes };
    request.account = toAccount('user', found.user);
    // Never the cookie's session: a key's request acts only as the key's seller.
    request.session = null;
    const last = found.key.lastUsedAt?.getTime() ?? 0;
    if (now - last >= TOUCH_EVERY_MS || found.key.lastUsedIp !== request.ip) {
      await app.run((context) => touchTheKey(context, found.key.id, request.ip));
    }
    if (scope && !scopes.includes(scope)) {
      throw new HttpError(403, insufficientScopeMessage(scope), undefined, {
        code: INSUFFICIENT_SCOPE,
      });
    }
  };
}

/** The key of a request behind `requireApiKey`. */
export function apiKeyOf(request: FastifyRequest) {
  if (!request.apiKey) throw invalidKey();
  return request.apiKey;
}

/** Each key's own limit (issue 42): requests per minute, counted per key on every instance. */
export function perKeyLimit(limits: Limits) {
  return {
    // Read at each request, from the instance's settings.
    max: () => limits.apiKeyRequestsPerMinute,
    timeWindow: MINUTE,
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) => `api-key:${apiKeyOf(request).id}`,
    errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) =>
      new HttpError(
        429,
        `Too many requests with this API key. Try again in ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds.`,
        undefined,
        { code: 'rate_limited' },
      ),
  };
}
