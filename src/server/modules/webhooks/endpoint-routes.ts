import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isUuid } from '../../../shared/ids';
import {
  createdWebhookEndpointSchema,
  createWebhookEndpointSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
} from '../../../shared/partner-api';
import { notFound } from '../../common/http-error';
import { accountOf } from '../../plugins/auth';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  resendDelivery,
  rotateWebhookSecret,
  sendTestEvent,
} from './commands';
import { deliveriesOf, listWebhookEndpoints } from './queries';

type Guards = onRequestHookHandler | onRequestHookHandler[];

/** Who may call each kind of webhook endpoint route, and the route config for each kind. */
export interface WebhookEndpointRouteOptions {
  /** `/api/v1/webhook-endpoints` (API key) or `/api/webhook-endpoints` (cookie session). */
  prefix: string;
  /** The list and the delivery log. */
  read: Guards;
  /** Deleting an endpoint. */
  remove: Guards;
  /** A test event and a resend. */
  send: Guards;
  /** Registering an endpoint and a new secret: card data sent somewhere new. */
  secret: Guards;
  /** Route config of the reads and the delete, and of the writes that may be retried. */
  config?: { read: Record<string, unknown>; write: Record<string, unknown> };
}

const idParams = z.object({ id: z.string() });

/**
 * The webhook endpoint routes (decision 127): the one implementation behind the partner API's
 * `/api/v1/webhook-endpoints` and the web app's `/api/webhook-endpoints`, which differ only in
 * their guards and route config.
 */
export function webhookEndpointRoutes(app: FastifyInstance, options: WebhookEndpointRouteOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { prefix } = options;
  const readConfig = options.config && { config: options.config.read };
  const writeConfig = options.config && { config: options.config.write };

  r.post(
    prefix,
    {
      onRequest: options.secret,
      ...writeConfig,
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

  r.get(
    prefix,
    {
      onRequest: options.read,
      ...readConfig,
      schema: { response: { 200: z.array(webhookEndpointSchema) } },
    },
    async (request) => listWebhookEndpoints(app.db, accountOf(request).id),
  );

  r.delete(
    `${prefix}/:id`,
    {
      onRequest: options.remove,
      ...readConfig,
      schema: { params: idParams, response: { 200: z.object({ success: z.literal(true) }) } },
    },
    async (request) => {
      const account = accountOf(request);
      await app.run((c) => deleteWebhookEndpoint(c, account, request.params.id));
      return { success: true as const };
    },
  );

  r.get(
    `${prefix}/:id/deliveries`,
    {
      onRequest: options.read,
      ...readConfig,
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
    `${prefix}/:id/test`,
    {
      onRequest: options.send,
      ...writeConfig,
      schema: { params: idParams, response: { 202: webhookDeliverySchema } },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const delivery = await app.run((c) => sendTestEvent(c, account, request.params.id));
      app.webhooks.kick();
      return reply.code(202).send(delivery);
    },
  );

  r.post(
    `${prefix}/:id/deliveries/:deliveryId/resend`,
    {
      onRequest: options.send,
      ...writeConfig,
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
    `${prefix}/:id/rotate-secret`,
    {
      onRequest: options.secret,
      ...writeConfig,
      schema: { params: idParams, response: { 200: z.object({ secret: z.string() }) } },
    },
    async (request) => {
      const account = accountOf(request);
      return app.run((c) => rotateWebhookSecret(c, account, request.params.id));
    },
  );
}
