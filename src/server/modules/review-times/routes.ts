import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { reviewSummarySchema, reviewTimesSchema } from '../../../shared/fair-dealing';
import { reviewSummary, reviewTimes } from './queries';

/**
 * Review times sellers can see, and staff's count of cards past the target (decision 073). Not
 * cached under a live topic: both move with the clock, not only with writes.
 */
export default async function reviewTimeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/review-times', { schema: { response: { 200: reviewTimesSchema } } }, async () =>
    reviewTimes(app.db, new Date(app.now()), app.config.fairDealing.reviewTargetMinutes),
  );

  r.get(
    '/api/admin/review-summary',
    { config: { capability: 'portal.read' }, schema: { response: { 200: reviewSummarySchema } } },
    async () =>
      reviewSummary(app.db, new Date(app.now()), app.config.fairDealing.reviewTargetMinutes),
  );
}
