import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isUuid } from '../../../shared/ids';
import {
  API_KEY_LEVEL,
  createdWebhookEndpointSchema,
  createWebhookEndpointSchema,
  VERIFICATION_REQUIRED,
  VERIFICATION_REQUIRED_MESSAGE,
  webhookDeliverySchema,
  webhookEndpointSchema,
} from '../../../shared/partner-api';
import { HttpError, notFound } from '../../common/http-error';
import {
  accountOf,
  requireActiveAccount,
  requireCustomer,
  requireRecentPassword,
} from '../../plugins/auth';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  resendDelivery,
  rotateWebhookSecret,
  sendTestEvent,
} from './commands';
import { deliveriesOf, listWebhookEndpoints, verificationLevelOf } from './queries';

/** Webhooks are for the sellers who may hold API keys (level 2), as the keys are (issue 42). */
async function requirePartnerLevel(request: FastifyRequest) {
  const level = await verificationLevelOf(request.server.db, accountOf(request).id);
  if (level < API_KEY_LEVEL) {
    throw new HttpError(403, VERIFICATION_REQUIRED_MESSAGE, undefined, {
      code: VERIFICATION_REQUIRED,
    });
  }
}

const idParams = z.object({ id: z.string() });
const success = z.object({ success: z.literal(true) });

/**
 * A seller's webhook endpoints in the profile (cookie session): the same commands and reads as
 * `/api/v1/webhook-endpoints`, so the web app manages what a key with `webhooks:manage` does.
 * Registering an endpoint, or a new secret, sends the seller's card data somewhere new: a fresh
 * password, as for an API key (decision 146).
 */
export default async function webhookRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const write = [requireCustomer, requireActiveAccount, requirePartnerLevel];

  r.get(
    '/api/webhook-endpoints',
    { onRequest: requireCustomer, schema: { response: { 200: z.array(webhookEndpointSchema) } } },
    async (request) => listWebhookEndpoints(app.db, accountOf(request).id),
  );

  r.post(
    '/api/webhook-endpoints',
    {
      onRequest: [...write, requireRecentPassword],
      schema: {
        body: createWebhookEndpointSchema,
        response: { 201: createdWebhookEndpointSchema },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const created = await app.run((c) => createWebhookEndpoint(c, account, request.body));
      return reply.code(201).send(created);
    },
  );

  r.delete(
    '/api/webhook-endpoints/:id',
    { onRequest: requireCustomer, schema: { params: idParams, response: { 200: success } } },
    async (request) => {
      const account = accountOf(request);
      await app.run((c) => deleteWebhookEndpoint(c, account, request.params.id));
      return { success: true as const };
    },
  );

  r.get(
    '/api/webhook-endpoints/:id/deliveries',
    {
      onRequest: requireCustomer,
      schema: { params: idParams, response: { 200: z.array(webhookDeliverySchema) } },
    },
    async (request) => {
      const { id } = request.params;
      const log = isUuid(id) ? await deliveriesOf(app.db, accountOf(request).id, id) : null;
      if (!log) throw notFound('Webhook endpoint not found');
      return log;
    },
  );

  r.post(
    '/api/webhook-endpoints/:id/test',
    { onRequest: write, schema: { params: idParams, response: { 202: webhookDeliverySchema } } },
    async (request, reply) => {
      const account = accountOf(request);
      const delivery = await app.run((c) => sendTestEvent(c, account, request.params.id));
      app.webhooks.kick();
      return reply.code(202).send(delivery);
    },
  );

  r.post(
    '/api/webhook-endpoints/:id/deliveries/:deliveryId/resend',
    {
      onRequest: write,
      schema: {
        params: z.object({ id: z.string(), deliveryId: z.string() }),
        response: { 202: webhookDeliverySchema },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { id, deliveryId } = request.params;
      const delivery = await app.run((c) => resendDelivery(c, account, id, deliveryId));
      app.webhooks.kick();
      return reply.code(202).send(delivery);
    },
  );

  r.post(
    '/api/webhook-endpoints/:id/rotate-secret',
    {
      onRequest: [...write, requireRecentPassword],
      schema: { params: idParams, response: { 200: z.object({ secret: z.string() }) } },
    },
    async (request) => {
      const account = accountOf(request);
      return app.run((c) => rotateWebhookSecret(c, account, request.params.id));
    },
  );
}
