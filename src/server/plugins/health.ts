import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when shutdown begins: readiness fails so the load balancer stops sending requests. */
    draining: boolean;
  }
}

/** The paths a load balancer polls: no session, no log line per call. */
export const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** How long a dependency may take before readiness calls it down. */
const CHECK_TIMEOUT_MS = 2000;

async function within(promise: Promise<unknown>, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /healthz: the process runs. GET /readyz: it can serve, i.e. the database and the storage
 * answer and it is not shutting down; a 503 names what failed (docs/operations.md).
 */
export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    if (app.draining) return reply.code(503).send({ status: 'shutting down' });
    const checks: Record<string, () => Promise<unknown>> = {
      database: () => app.database.pool.query('select 1'),
      storage: () => app.storage.check(),
    };
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await within(check(), CHECK_TIMEOUT_MS);
          return [name, 'ok'] as const;
        } catch {
          return [name, 'unavailable'] as const;
        }
      }),
    );
    const failing = results.filter(([, state]) => state !== 'ok').map(([name]) => name);
    const body = { status: failing.length ? 'unavailable' : 'ok', ...Object.fromEntries(results) };
    return reply.code(failing.length ? 503 : 200).send(body);
  });
}
