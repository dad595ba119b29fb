import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { notFound } from '../common/http-error';
import { transactions } from '../db/schema';

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Prometheus text at GET /metrics, for whoever holds METRICS_TOKEN (404 without the setting, so
 * an install that does not use it does not show it). One registry per app.
 */
export function registerMetrics(app: FastifyInstance) {
  const token = app.config.metricsToken;
  if (!token) {
    app.get('/metrics', { schema: { hide: true } }, async () => {
      throw notFound('Not found');
    });
    return;
  }
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'cardbridge_http_requests_total',
    help: 'HTTP requests answered, by route and status',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'cardbridge_http_request_duration_seconds',
    help: 'Time to answer, by route and status',
    labelNames,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const cardsSubmitted = new Counter({
    name: 'cardbridge_cards_submitted_total',
    help: 'Gift cards submitted through this instance',
    registers: [registry],
  });
  const pool = app.database.pool;
  new Gauge({
    name: 'cardbridge_db_pool_connections',
    help: 'Database connections by state',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new Gauge({
    name: 'cardbridge_review_queue_pending',
    help: 'Transactions waiting for review (status pending)',
    registers: [registry],
    async collect() {
      this.set(await app.db.$count(transactions, eq(transactions.status, 'pending')));
    },
  });

  // Every answered request, on every route of the app (a hook of the root instance); a callback
  // hook, as every hook each request passes through (decision 090).
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern, never the raw URL: ids would make a label per record.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
    if (route === '/api/transactions' && request.method === 'POST' && reply.statusCode === 201) {
      cardsSubmitted.inc();
    }
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!sameSecret(given, token)) {
      reply.header('WWW-Authenticate', 'Bearer');
      return reply.code(401).send({ message: 'A valid metrics token is required' });
    }
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
