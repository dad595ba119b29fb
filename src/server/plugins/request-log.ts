import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROBE_PATHS } from './health';

const READS = new Set(['GET', 'HEAD']);

export const REQUEST_ID_HEADER = 'x-request-id';
/** An id a proxy or client may pass on: short, and nothing that could forge a log line. */
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/**
 * The request's id: the caller's `X-Request-Id` when it is a sane one (a proxy's id ties its
 * log to ours), else a random UUID, never a counter that restarts with the process.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * One line per request an operator cares about: every write, every server error, every refused
 * read (4xx) and any request slower than a second, with the request id and the account. The
 * thousands of polls a minute that answer 200 or 304 log at debug only, so they neither drown the
 * log nor slow the hot path.
 */
function logRequest(request: FastifyRequest, reply: FastifyReply, debugEnabled: boolean) {
  if (PROBE_PATHS.has(request.url)) return;
  const status = reply.statusCode;
  const ms = reply.elapsedTime;
  const quiet = READS.has(request.method) && status < 400 && ms < 1000;
  if (quiet && !debugEnabled) return;
  const line = {
    method: request.method,
    url: request.url.split('?')[0],
    status,
    ms: Math.round(ms),
    // Who did it (ASVS 16.3): staff changes and sign-outs carry the account; never a token.
    ...(request.account && { account: request.account.id, kind: request.account.kind }),
  };
  if (status >= 500) request.log.error(line, 'request failed');
  else if (quiet) request.log.debug(line, 'request');
  else request.log.info(line, 'request');
}

export function registerRequestLog(app: FastifyInstance) {
  const debugEnabled = app.log.level === 'debug' || app.log.level === 'trace';
  // Callback hooks, not async ones, here and in the other hooks every poll passes through: an
  // async hook costs a promise and a turn of the microtask queue per request (decision 090).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply, debugEnabled);
    done();
  });
}
