import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminListQuerySchema,
  adminStatsSchema,
  adminTransactionDetailSchema,
  adminTransactionSchema,
  adminUserSchema,
  NEXT_CURSOR_HEADER,
  updateTransactionSchema,
} from '../../../shared/admin';
import { isUuid } from '../../../shared/ids';
import { notFound } from '../../common/http-error';
import { accountOf, requireStaff } from '../../plugins/auth';
import { checksOf } from '../checks/checks';
import { updateTransactionAsStaff } from './commands';
import {
  adminStats,
  findAdminTransaction,
  listAdminTransactions,
  listAdminUsers,
  removedImagesOf,
  transactionAudit,
} from './queries';

const idParams = z.object({ id: z.string() });

export default async function adminRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Every route here is for staff only: 401 signed out, 403 for customers.
  app.addHook('onRequest', requireStaff);

  r.get(
    '/api/admin/stats',
    {
      config: { live: { topic: 'admin-stats', scope: 'staff' } },
      schema: { response: { 200: adminStatsSchema } },
    },
    async () => adminStats(app.db),
  );

  r.get(
    '/api/admin/transactions',
    {
      config: { live: { topic: 'queue', scope: 'staff' } },
      schema: {
        querystring: adminListQuerySchema,
        response: { 200: z.array(adminTransactionSchema) },
      },
    },
    async (request, reply) => {
      const { items, nextCursor } = await listAdminTransactions(app.db, request.query);
      if (nextCursor) reply.header(NEXT_CURSOR_HEADER, nextCursor);
      return items;
    },
  );

  r.get(
    '/api/admin/transactions/:id',
    { schema: { params: idParams, response: { 200: adminTransactionDetailSchema } } },
    async (request) => {
      const { id } = request.params;
      const transaction = isUuid(id) ? await findAdminTransaction(app.db, id) : null;
      if (!transaction) throw notFound('Transaction not found');
      return {
        ...transaction,
        audit: await transactionAudit(app.db, id),
        checks: await checksOf(app.db, id),
        removedImages: await removedImagesOf(app.db, id),
      };
    },
  );

  r.patch(
    '/api/admin/transactions/:id',
    {
      schema: {
        params: idParams,
        body: updateTransactionSchema,
        response: { 200: adminTransactionSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isUuid(id)) throw notFound('Transaction not found');
      const { expectedUpdatedAt, ...changes } = request.body;
      await app.run((context) =>
        updateTransactionAsStaff(context, accountOf(request), id, changes, expectedUpdatedAt),
      );
      return (await findAdminTransaction(app.db, id))!;
    },
  );

  r.get(
    '/api/admin/users',
    {
      config: { live: { topic: 'users', scope: 'staff' } },
      schema: {
        querystring: adminListQuerySchema.pick({ cursor: true, limit: true }),
        response: { 200: z.array(adminUserSchema) },
      },
    },
    async (request, reply) => {
      const { items, nextCursor } = await listAdminUsers(app.db, request.query);
      if (nextCursor) reply.header(NEXT_CURSOR_HEADER, nextCursor);
      return items;
    },
  );
}
