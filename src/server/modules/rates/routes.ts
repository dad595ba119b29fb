import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminBrandRateSchema,
  brandRateSchema,
  createRateSchema,
  rateChangeSchema,
  rateListSchema,
  updateRateSchema,
} from '../../../shared/rate-schemas';
import { accountOf } from '../../plugins/auth';
import { addBrand, changeBrand } from './commands';
import { activeRates, allRates, rateHistory } from './queries';

const HISTORY_SHOWN = 200;

export default async function rateRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Public: the landing page and the upload form quote from it. Answered from memory until a
  // staff change, with an ETag (decision 053).
  r.get(
    '/api/rates',
    {
      config: { live: { topic: 'rates', scope: 'public' } },
      schema: { response: { 200: rateListSchema } },
    },
    async () => activeRates(app.db),
  );

  r.get(
    '/api/admin/rates',
    {
      config: { capability: 'rates.read' },
      schema: { response: { 200: z.array(adminBrandRateSchema) } },
    },
    async () => allRates(app.db),
  );

  r.get(
    '/api/admin/rates/history',
    {
      config: { capability: 'rates.read' },
      schema: { response: { 200: z.array(rateChangeSchema) } },
    },
    async () => rateHistory(app.db, HISTORY_SHOWN),
  );

  r.post(
    '/api/admin/rates',
    {
      config: { capability: 'rates.manage' },
      schema: { body: createRateSchema, response: { 201: brandRateSchema } },
    },
    async (request, reply) => {
      const terms = await app.run((context) => addBrand(context, accountOf(request), request.body));
      return reply.code(201).send(terms);
    },
  );

  r.put(
    '/api/admin/rates/:brand',
    {
      config: { capability: 'rates.manage' },
      schema: {
        params: z.object({ brand: z.string().max(120) }),
        body: updateRateSchema,
        response: { 200: brandRateSchema },
      },
    },
    async (request) => {
      const { brand } = request.params;
      return app.run((context) => changeBrand(context, accountOf(request), brand, request.body));
    },
  );
}
