import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataExportSchema,
  deleteAccountSchema,
  deletionResultSchema,
  EXPORT_EXPIRED,
  eraseAccountSchema,
} from '../../../shared/privacy';
import { sendFile } from '../../common/download';
import { HttpError, idParams, notFound, onId } from '../../common/http-error';
import { accountOf, requireCustomer } from '../../plugins/auth';
import { confirmOwnPassword } from '../../plugins/password-confirm';
import { clearSessionCookie } from '../../plugins/session';
import { eraseAccount, requestExport } from './commands';
import { buildExports } from './jobs';
import { accountExports, findExport } from './queries';

/**
 * The Privacy Policy's rights (issue 22, decision 083): a copy of one's data, and deletion, by
 * the customer from Profile or by staff for a customer who asks by email.
 */
export default async function privacyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/account/export',
    {
      onRequest: requireCustomer,
      schema: {
        response: { 202: z.object({ id: z.string(), status: z.literal('pending') }) },
      },
    },
    async (request, reply) => {
      const created = await app.run((context) => requestExport(context, accountOf(request).id));
      // Built now on this instance; the minute job takes it up if this instance stops.
      void buildExports(app).catch((err) => request.log.warn({ err }, 'export build failed'));
      return reply.code(202).send(created);
    },
  );

  r.get(
    '/api/account/exports',
    {
      onRequest: requireCustomer,
      config: { live: { topic: 'account' } },
      schema: { response: { 200: z.array(dataExportSchema) } },
    },
    async (request) => accountExports(app.db, accountOf(request).id, app.now()),
  );

  r.get(
    '/api/account/exports/:id/download',
    { onRequest: requireCustomer, schema: { params: idParams('Export not found') } },
    async (request, reply) => {
      const { id } = request.params;
      // Another account's export answers as one that does not exist.
      const found = await findExport(app.db, accountOf(request).id, id);
      if (!found) throw notFound('Export not found');
      const lapsed = found.expiresAt !== null && found.expiresAt.getTime() <= app.now();
      if (found.status === 'expired' || (found.status === 'ready' && lapsed)) {
        throw new HttpError(410, EXPORT_EXPIRED, undefined, { code: 'export_expired' });
      }
      if (found.status !== 'ready' || !found.objectKey) {
        throw new HttpError(409, 'This export is not ready yet.', undefined, {
          code: 'export_not_ready',
        });
      }
      const stored = await app.storage.get(found.objectKey);
      if (!stored) throw new HttpError(410, EXPORT_EXPIRED, undefined, { code: 'export_expired' });
      const day = found.createdAt.toISOString().slice(0, 10);
      const name = `cardbridge-data-${day}.zip`;
      return sendFile(reply, { type: 'application/zip', name, size: stored.size }, stored.body);
    },
  );

  r.delete(
    '/api/account',
    {
      onRequest: requireCustomer,
      schema: {
        body: deleteAccountSchema,
        response: { 200: deletionResultSchema, 202: deletionResultSchema },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      await confirmOwnPassword(app, reply, account, request.body.password);
      const result = await app.run((context) =>
        eraseAccount(context, account.id, {
          actor: account,
          staff: false,
          whenSettled: request.body.whenSettled,
        }),
      );
      app.mail.kick();
      if (!result.deleted) return reply.code(202).send(result);
      request.session = null;
      clearSessionCookie(reply);
      request.log.info({ event: 'account_deleted', account: account.id }, 'account deleted');
      return result;
    },
  );

  r.post(
    '/api/admin/users/:id/erase',
    onId('users.close', 'User not found', {
      body: eraseAccountSchema,
      response: { 200: deletionResultSchema, 202: deletionResultSchema },
    }),
    async (request, reply) => {
      const { id } = request.params;
      const result = await app.run((context) =>
        eraseAccount(context, id, {
          actor: accountOf(request),
          staff: true,
          whenSettled: request.body?.whenSettled,
        }),
      );
      app.mail.kick();
      return reply.code(result.deleted ? 200 : 202).send(result);
    },
  );
}
