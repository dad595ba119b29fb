import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isUuid } from '../../../shared/ids';
import {
  adminBrandRateSchema,
  brandRateSchema,
  createRateAlertSchema,
  createRateSchema,
  rateAlertSchema,
  rateChangeSchema,
  rateListSchema,
  updateRateSchema,
} from '../../../shared/rate-schemas';
import { notFound } from '../../common/http-error';
import { accountOf, requireCustomer } from '../../plugins/auth';
import { addBrand, changeBrand, createRateAlert, deleteRateAlert } from './commands';
import { activeRates, allRates, rateAlertsOf, rateHistory } from './queries';

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

  // A seller's rate alerts (issue 41, decision 132).
  r.get(
    '/api/rate-alerts',
    { onRequest: requireCustomer, schema: { response: { 200: z.array(rateAlertSchema) } } },
    async (request) => rateAlertsOf(app.db, accountOf(request).id),
  );

  r.post(
    '/api/rate-alerts',
    {
      onRequest: requireCustomer,
      schema: { body: createRateAlertSchema, response: { 201: rateAlertSchema } },
    },
    async (request, reply) => {
      const alert = await app.run((context) =>
        createRateAlert(context, accountOf(request).id, request.body),
      );
      return reply.code(201).send(alert);
    },
  );

  r.delete(
    '/api/rate-alerts/:id',
    {
      onRequest: requireCustomer,
      schema: { params: z.object({ id: z.string() }), response: { 204: z.null() } },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isUuid(id)) throw notFound('Alert not found');
      await app.run((context) => deleteRateAlert(context, accountOf(request).id, id));
      return reply.code(204).send(null);
    },
  );
}
