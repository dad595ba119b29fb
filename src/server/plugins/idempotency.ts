import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  IDEMPOTENCY_HOURS,
  IDEMPOTENCY_IN_PROGRESS,
  IDEMPOTENCY_IN_PROGRESS_MESSAGE,
  IDEMPOTENCY_KEY_INVALID,
  IDEMPOTENCY_KEY_REUSED,
  IDEMPOTENCY_KEY_REUSED_MESSAGE,
} from '../../shared/partner-api';
import { HttpError } from '../common/http-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A POST that honours `Idempotency-Key` (issue 42, decision 126): the same key and body answer
     * the first answer again; another body is 422; while the first runs, 409.
     */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed, whose answer is kept once it is sent. */
    idempotencyClaim?: { holder: string; key: string };
  }
}

const HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const KEEP_MS = IDEMPOTENCY_HOURS * 60 * 60 * 1000;
/**
 * A claim with no answer after this long belongs to a request that died with its process (no
 * request runs this long: REQUEST_BODY_SECONDS cuts them): the key may be claimed again.
 */
const ABANDONED_MS = 5 * 60 * 1000;

/** JSON with object keys sorted, so the same body hashes the same whatever its key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const requestHash = (request: FastifyRequest) =>
  createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url}\n${canonical(request.body)}`)
    .digest('hex');

/** The header's key: none, or 1 to 255 visible characters (400 otherwise). */
function keyOf(request: FastifyRequest): string | null {
  const header = request.headers[HEADER];
  if (header === undefined) return null;
  if (typeof header !== 'string' || header.length < 1 || header.length > 255) {
    throw new HttpError(
      400,
      IDEMPOTENCY_KEY_INVALID,
      { 'Idempotency-Key': IDEMPOTENCY_KEY_INVALID },
      {
        code: 'invalid_idempotency_key',
      },
    );
  }
  return header;
}

/**
 * Idempotency-Key on the routes that ask for it (issue 42, decision 126). The key is claimed in
 * the database before the handler runs (one row per account and key: of requests sent at once,
 * one claims it and the others see the claim), and the answer kept with it once sent, for 24
 * hours; an answer of 5xx releases the claim, so the request can be tried again. Kept in
 * PostgreSQL, it holds across instances and restarts.
 */
export function registerIdempotency(app: FastifyInstance) {
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.routeOptions.config?.idempotent) return;
    const key = keyOf(request);
    // The route's guards ran first (onRequest): the account is known, or the request refused.
    const holder = request.account?.id;
    // A file upload's bytes are read by the handler, after this hook: its body cannot be
    // compared, so the key is not taken (decision 126); the bulk route's JSON form takes it.
    if (key === null || !holder || request.isMultipart()) return;
    const hash = requestHash(request);
    const now = app.now();
    const { rows: claimed } = await app.database.pool.query({
      name: 'cardbridge-idempotency-claim',
      text: `insert into idempotency_keys (holder, key, request_hash, created_at)
             values ($1, $2, $3, $4)
             on conflict (holder, key) do update set
               request_hash = excluded.request_hash, status_code = null, body = null,
               content_type = null, created_at = excluded.created_at
             where idempotency_keys.created_at <= $5
                or (idempotency_keys.status_code is null and idempotency_keys.created_at <= $6)
             returning 1`,
      values: [
        holder,
        key,
        hash,
        new Date(now),
        new Date(now - KEEP_MS),
        new Date(now - ABANDONED_MS),
      ],
    });
    if (claimed.length > 0) {
      request.idempotencyClaim = { holder, key };
      return;
    }
    const { rows } = await app.database.pool.query<{
      request_hash: string;
      status_code: number | null;
      body: string | null;
      content_type: string | null;
    }>({
      name: 'cardbridge-idempotency-read',
      text: `select request_hash, status_code, body, content_type from idempotency_keys
             where holder = $1 and key = $2`,
      values: [holder, key],
    });
    const first = rows[0];
    // Gone between the two statements (swept): treated as in progress, the client tries again.
    if (!first || first.status_code === null) {
      if (first && first.request_hash !== hash) throw reused();
      throw new HttpError(409, IDEMPOTENCY_IN_PROGRESS_MESSAGE, undefined, {
        code: IDEMPOTENCY_IN_PROGRESS,
      });
    }
    if (first.request_hash !== hash) throw reused();
    reply.header(REPLAYED_HEADER, 'true');
    if (first.content_type) reply.type(first.content_type);
    return reply.code(first.status_code).send(first.body ?? '');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = undefined;
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await app.database.pool.query({
        name: 'cardbridge-idempotency-release',
        text: 'delete from idempotency_keys where holder = $1 and key = $2',
        values: [claim.holder, claim.key],
      });
      return payload;
    }
    const type = reply.getHeader('content-type');
    await app.database.pool.query({
      name: 'cardbridge-idempotency-answer',
      text: `update idempotency_keys set status_code = $3, body = $4, content_type = $5
             where holder = $1 and key = $2`,
      values: [
        claim.holder,
        claim.key,
        reply.statusCode,
        payload,
        typeof type === 'string' ? type.slice(0, 100) : null,
      ],
    });
    return payload;
  });
}

const reused = () =>
  new HttpError(422, IDEMPOTENCY_KEY_REUSED_MESSAGE, undefined, { code: IDEMPOTENCY_KEY_REUSED });

/** Answers kept past their 24 hours (swept hourly with the rate-limit windows). */
export async function deleteExpiredIdempotencyKeys(app: FastifyInstance) {
  const { rowCount } = await app.database.pool.query({
    name: 'cardbridge-idempotency-sweep',
    text: 'delete from idempotency_keys where created_at <= $1',
    values: [new Date(app.now() - KEEP_MS)],
  });
  return rowCount ?? 0;
}
