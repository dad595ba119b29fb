import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ANALYTICS_MAX_DAYS,
  analyticsQuerySchema,
  analyticsSchema,
  earningsSchema,
} from '../../../shared/analytics';
import { toCsv } from '../../../shared/csv';
import { sendFile } from '../../common/download';
import { badRequest } from '../../common/http-error';
import { accountOf, requireSignedIn } from '../../plugins/auth';
import { analytics, analyticsRows, earnings } from './queries';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Analytics for staff (issue 21, item 5): owners and finance see the business; a reviewer sees
 * their own decisions only. And a seller's earnings for their dashboard (item 6).
 */
export default async function analyticsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** The range asked for: the last 30 days by default, at most a year. */
  const rangeOf = (query: { from?: string; to?: string }) => {
    const to = query.to ?? isoDay(app.now());
    const from = query.from ?? isoDay(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS);
    const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
    if (days < 1) throw badRequest('from must not be after to', 'from');
    if (days > ANALYTICS_MAX_DAYS) {
      throw badRequest(`The range can be at most ${ANALYTICS_MAX_DAYS} days`, 'from');
    }
    return { from, to };
  };
  const figuresFor = (request: Parameters<typeof accountOf>[0], query: object) => {
    const account = accountOf(request);
    // Reviewers see their own row and nothing of the business.
    const ownOnly = account.staffRole === 'reviewer';
    return analytics(app.db, rangeOf(query), ownOnly ? account.id : undefined).then((a) =>
      ownOnly
        ? {
            ...a,
            days: [],
            approvalRate: null,
            medianMinutesToDecision: null,
            medianMinutesToPayment: null,
            brands: [],
          }
        : a,
    );
  };

  r.get(
    '/api/admin/analytics',
    {
      config: { capability: 'analytics' },
      schema: { querystring: analyticsQuerySchema, response: { 200: analyticsSchema } },
    },
    async (request) => figuresFor(request, request.query),
  );

  r.get(
    '/api/admin/analytics.csv',
    { config: { capability: 'analytics' }, schema: { querystring: analyticsQuerySchema } },
    async (request, reply) => {
      const figures = await figuresFor(request, request.query);
      const name = `cardbridge-analytics-${figures.from}-to-${figures.to}.csv`;
      const csv = Buffer.from(toCsv(analyticsRows(figures)), 'utf8');
      return sendFile(reply, { type: 'text/csv; charset=utf-8', name }, csv);
    },
  );

  r.get(
    '/api/stats/earnings',
    {
      onRequest: requireSignedIn,
      config: { live: { topic: 'stats' } },
      schema: { response: { 200: earningsSchema } },
    },
    async (request) => earnings(app.db, accountOf(request).id, app.now()),
  );
}
