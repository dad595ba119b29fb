import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createPaymentMethodSchema,
  paymentMethodSchema,
  updatePaymentMethodSchema,
} from '../../../shared/payment-methods';
import {
  accountOf,
  requireActiveAccount,
  requireCustomer,
  requireRecentPassword,
  requireSignedIn,
} from '../../plugins/auth';

/** A change to where the money goes (decision 072): an active account, and a fresh password. */
const guardedWrite = {
  onRequest: [requireCustomer, requireActiveAccount, requireRecentPassword],
};

import { addPaymentMethod, editPaymentMethod, removePaymentMethod } from './commands';
import { listPaymentMethods, toPaymentMethod } from './queries';

export default async function paymentMethodRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/payment-methods',
    {
      onRequest: requireSignedIn,
      config: { live: { topic: 'payment-methods' } },
      schema: { response: { 200: z.array(paymentMethodSchema) } },
    },
    async (request) =>
      (await listPaymentMethods(app.db, accountOf(request).id)).map((row) =>
        toPaymentMethod(row, app.config.verification.payoutHoldNewMethodHours),
      ),
  );

  r.post(
    '/api/payment-methods',
    {
      ...guardedWrite,
      schema: { body: createPaymentMethodSchema, response: { 201: paymentMethodSchema } },
    },
    async (request, reply) => {
      const userId = accountOf(request).id;
      const method = await app.run((context) => addPaymentMethod(context, userId, request.body));
      return reply.code(201).send(method);
    },
  );

  r.patch(
    '/api/payment-methods/:id',
    {
      ...guardedWrite,
      schema: {
        params: z.object({ id: z.string() }),
        body: updatePaymentMethodSchema,
        response: { 200: paymentMethodSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      const userId = accountOf(request).id;
      return app.run((context) => editPaymentMethod(context, userId, id, request.body));
    },
  );

  r.delete(
    '/api/payment-methods/:id',
    {
      ...guardedWrite,
      schema: {
        params: z.object({ id: z.string() }),
        response: { 200: z.object({ success: z.literal(true) }) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const userId = accountOf(request).id;
      await app.run((context) => removePaymentMethod(context, userId, id));
      return { success: true as const };
    },
  );
}
