import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionSchema } from '../../../shared/sessions';
import { idParams, onId } from '../../common/http-error';
import type { SessionData } from '../../common/session-cache';
import { accountOf, requireSignedIn } from '../../plugins/auth';
import { clearSessionCookie } from '../../plugins/session';
import { endAccountSession, endCustomerSessions, endOtherSessions } from './commands';
import { accountSessions, describeAgent } from './queries';

export default async function sessionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/sessions',
    {
      onRequest: requireSignedIn,
      schema: { response: { 200: z.array(sessionSchema) } },
    },
    async (request) => {
      const account = accountOf(request);
      const current = request.session!;
      const rows = await accountSessions(app.db, account, app.now());
      return rows.map((row) => {
        const data = (row.sess ?? {}) as SessionData;
        const isCurrent = row.sid === current.sid;
        return {
          id: row.publicId,
          ...describeAgent(data.userAgent),
          ipAddress: data.ip ?? null,
          createdAt: row.createdAt.toISOString(),
          // The row is written every few minutes; this session's own request is now.
          lastSeenAt: new Date(isCurrent ? current.lastSeenAt : row.lastSeenAt).toISOString(),
          current: isCurrent,
        };
      });
    },
  );

  r.delete(
    '/api/sessions/:id',
    { onRequest: requireSignedIn, schema: { params: idParams('Session not found') } },
    async (request, reply) => {
      const account = accountOf(request);
      const { id } = request.params;
      const sid = await app.run((context) => endAccountSession(context, account, id));
      // Ending the session in use is signing out.
      if (sid === request.session!.sid) clearSessionCookie(reply);
      request.log.info({ event: 'session_ended', account: account.id }, 'session ended');
      return { success: true };
    },
  );

  r.post(
    '/api/sessions/revoke-others',
    {
      onRequest: requireSignedIn,
      schema: { response: { 200: z.object({ ended: z.number() }) } },
    },
    async (request) => {
      const account = accountOf(request);
      const ended = await app.run((context) =>
        endOtherSessions(context, account, request.session!.sid),
      );
      request.log.info(
        { event: 'sessions_ended', account: account.id, ended },
        'other sessions ended',
      );
      return { ended };
    },
  );

  /** Staff end every session of a customer (a stolen phone, a suspected takeover): audited. */
  r.post(
    '/api/admin/users/:id/sessions/revoke',
    onId('users.standing', 'User not found', {
      response: { 200: z.object({ ended: z.number() }) },
    }),
    async (request) => {
      const { id } = request.params;
      const ended = await app.run((context) =>
        endCustomerSessions(context, accountOf(request), id),
      );
      return { ended };
    },
  );
}
