import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isUuid } from '../../../shared/ids';
import {
  createPaymentMethodSchema,
  updatePaymentMethodSchema,
} from '../../../shared/payment-methods';
import { STAFF } from '../../live/hub';
import { accountOf, requireCustomer, requireSignedIn } from '../../plugins/auth';
import { HttpError, notFound } from '../../plugins/errors';
import {
  createPaymentMethod,
  deletePaymentMethod,
  listPaymentMethods,
  toPaymentMethod,
  updatePaymentMethod,
} from './queries';

const NOT_FOUND = 'Payment method not found';
const ONLY_DEFAULT = 'This is your default payment method. Choose another default first.';

export const paymentMethodSchema = z.object({
  id: z.string(),
  type: z.string(),
  accountName: z.string(),
  identifier: z.string().nullable(),
  accountNumber: z.string().nullable(),
  bankName: z.string().nullable(),
  routingNumber: z.string().nullable(),
  isDefault: z.boolean(),
  createdAt: z.string(),
});

export default async function paymentMethodRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** A customer's methods show in their list, their transactions and the staff queue. */
  const changed = (userId: string) =>
    app.live.changed([userId, STAFF], ['payment-methods', 'transactions', 'queue']);

  r.get(
    '/api/payment-methods',
    {
      onRequest: requireSignedIn,
      config: { live: { topic: 'payment-methods' } },
      schema: { response: { 200: z.array(paymentMethodSchema) } },
    },
    async (request) =>
      (await listPaymentMethods(app.db, accountOf(request).id)).map(toPaymentMethod),
  );

  r.post(
    '/api/payment-methods',
    {
      onRequest: requireCustomer,
      schema: { body: createPaymentMethodSchema, response: { 201: paymentMethodSchema } },
    },
    async (request, reply) => {
      const userId = accountOf(request).id;
      const row = await createPaymentMethod(app.db, userId, request.body);
      changed(userId);
      return reply.code(201).send(toPaymentMethod(row));
    },
  );

  r.patch(
    '/api/payment-methods/:id',
    {
      onRequest: requireCustomer,
      schema: {
        params: z.object({ id: z.string() }),
        body: updatePaymentMethodSchema,
        response: { 200: paymentMethodSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!z.uuid().safeParse(id).success) throw notFound(NOT_FOUND);
      const userId = accountOf(request).id;
      const result = await updatePaymentMethod(app.db, userId, id, request.body);
      if (result === 'not-found') throw notFound(NOT_FOUND);
      if (result === 'only-default') throw new HttpError(409, ONLY_DEFAULT);
      changed(userId);
      return toPaymentMethod(result);
    },
  );

  r.delete(
    '/api/payment-methods/:id',
    {
      onRequest: requireCustomer,
      schema: {
        params: z.object({ id: z.string() }),
        response: { 200: z.object({ success: z.literal(true) }) },
      },
    },
    async (request) => {
      const { id } = request.params;

      const userId = accountOf(request).id;
      if (!isUuid(id) || !(await deletePaymentMethod(app.db, userId, id))) {
        throw notFound(NOT_FOUND);
      }
      changed(userId);
      return { success: true as const };
    },
  );
}
