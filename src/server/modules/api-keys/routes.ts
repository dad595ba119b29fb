import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiKeySchema, createApiKeySchema, createdApiKeySchema } from '../../../shared/partner-api';
import {
  accountOf,
  requireActiveAccount,
  requireCustomer,
  requireRecentPassword,
} from '../../plugins/auth';
import { createApiKey, revokeApiKey } from './commands';
import { listApiKeys } from './queries';

/** A seller's API keys, in the profile (cookie session only; a key never manages keys). */
export default async function apiKeyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/api-keys',
    {
      // As for a payee change (decision 072): an active account and a fresh password.
      onRequest: [requireCustomer, requireActiveAccount, requireRecentPassword],
      schema: { body: createApiKeySchema, response: { 201: createdApiKeySchema } },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const created = await app.run((context) => createApiKey(context, account, request.body));
      return reply.code(201).send(created);
    },
  );

  r.get(
    '/api/api-keys',
    { onRequest: requireCustomer, schema: { response: { 200: z.array(apiKeySchema) } } },
    async (request) => listApiKeys(app.db, accountOf(request).id),
  );

  r.delete(
    '/api/api-keys/:id',
    {
      onRequest: requireCustomer,
      schema: {
        params: z.object({ id: z.string() }),
        response: { 200: z.object({ success: z.literal(true) }) },
      },
    },
    async (request) => {
      const account = accountOf(request);
      await app.run((context) => revokeApiKey(context, account, request.params.id));
      return { success: true as const };
    },
  );
}
