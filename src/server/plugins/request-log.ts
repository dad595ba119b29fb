import type { FastifyInstance } from 'fastify';

const READS = new Set(['GET', 'HEAD']);

/**
 * One line per request an operator cares about: every write, every server error, every refused
 * read (4xx) and any request slower than a second. The thousands of polls a minute that answer
 * 200 or 304 log at debug only, so they neither drown the log nor slow the hot path.
 */
export function registerRequestLog(app: FastifyInstance) {
  const debugEnabled = app.log.level === 'debug' || app.log.level === 'trace';
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    const quiet = READS.has(request.method) && status < 400 && ms < 1000;
    if (quiet && !debugEnabled) return;
    const line = {
      method: request.method,
      url: request.url.split('?')[0],
      status,
      ms: Math.round(ms),
    };
    if (status >= 500) request.log.error(line, 'request failed');
    else if (quiet) request.log.debug(line, 'request');
    else request.log.info(line, 'request');
  });
}
