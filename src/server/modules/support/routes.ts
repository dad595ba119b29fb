import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NEXT_CURSOR_HEADER } from '../../../shared/admin';
import {
  adminTicketSchema,
  adminTicketsQuerySchema,
  createTicketSchema,
  ticketSchema,
  updateTicketSchema,
} from '../../../shared/support';
import { supportTickets, users } from '../../db/schema';
import { STAFF } from '../../live/hub';
import { accountOf, requireCustomer, requireSignedIn, requireStaff } from '../../plugins/auth';
import { notFound } from '../../plugins/errors';
import { HOUR, limit } from '../../plugins/rate-limit';
import { recordAudit } from '../admin/audit';
import { afterCursor, cursorColumn, toPage } from '../admin/cursor';
import { notify, ticketNotice } from '../notifications/notify';

type Row = typeof supportTickets.$inferSelect;
const toTicket = ({ userId: _u, ...row }: Row) => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export default async function supportRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/support-tickets',
    {
      onRequest: requireSignedIn,
      config: { live: { topic: 'tickets' } },
      schema: { response: { 200: z.array(ticketSchema) } },
    },
    async (request) => {
      const account = accountOf(request);
      if (account.kind !== 'user') return [];
      const rows = await app.db
        .select()
        .from(supportTickets)
        .where(eq(supportTickets.userId, account.id))
        .orderBy(desc(supportTickets.createdAt));
      return rows.map(toTicket);
    },
  );

  r.post(
    '/api/support-tickets',
    {
      onRequest: requireCustomer,
      config: {
        rateLimit: limit(
          'ticket',
          app.config.limits.ticketsPerHour,
          HOUR,
          (request) => accountOf(request).id,
          'You have filed many tickets in the last hour; we will answer those first.',
        ),
      },
      schema: { body: createTicketSchema, response: { 201: ticketSchema } },
    },
    async (request, reply) => {
      const userId = accountOf(request).id;
      const [row] = await app.db
        .insert(supportTickets)
        .values({ ...request.body, userId })
        .returning();
      app.live.changed([userId, STAFF], ['tickets', 'staff-tickets']);
      return reply.code(201).send(toTicket(row!));
    },
  );

  r.get(
    '/api/admin/support-tickets',
    {
      onRequest: requireStaff,
      config: { live: { topic: 'staff-tickets', scope: 'staff' } },
      schema: {
        querystring: adminTicketsQuerySchema,
        response: { 200: z.array(adminTicketSchema) },
      },
    },
    async (request, reply) => {
      const { status, cursor, limit } = request.query;
      const t = supportTickets;
      const rows = await app.db
        .select({
          ticket: t,
          userFirstName: users.firstName,
          userLastName: users.lastName,
          id: t.id,
          cursorCreatedAt: cursorColumn(t.createdAt),
        })
        .from(t)
        .leftJoin(users, eq(users.id, t.userId))
        .where(
          and(
            status && status !== 'all' ? eq(t.status, status) : undefined,
            cursor ? afterCursor(cursor, t.createdAt, t.id) : undefined,
          ),
        )
        .orderBy(desc(t.createdAt), desc(t.id))
        .limit(limit + 1);
      const { items, nextCursor } = toPage(rows, limit);
      if (nextCursor) reply.header(NEXT_CURSOR_HEADER, nextCursor);
      return items.map(({ ticket, id: _id, ...user }) => ({
        ...toTicket(ticket),
        userId: ticket.userId,
        ...user,
      }));
    },
  );

  r.patch(
    '/api/admin/support-tickets/:id',
    {
      onRequest: requireStaff,
      schema: {
        params: z.object({ id: z.string() }),
        body: updateTicketSchema,
        response: { 200: ticketSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!z.uuid().safeParse(id).success) throw notFound('Ticket not found');
      const actor = accountOf(request);
      const row = await app.db.transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(supportTickets)
          .where(eq(supportTickets.id, id))
          .for('update');
        if (!current) throw notFound('Ticket not found');
        if (current.status === request.body.status) return current;
        const [updated] = await tx
          .update(supportTickets)
          .set({ status: request.body.status, updatedAt: new Date() })
          .where(eq(supportTickets.id, id))
          .returning();
        await recordAudit(tx, actor, {
          entityType: 'support_ticket',
          entityId: id,
          action: 'update',
          changes: { status: { from: current.status, to: request.body.status } },
        });
        if (current.userId) {
          await notify(app, tx, current.userId, ticketNotice(current.subject, request.body.status));
        }
        return updated!;
      });
      app.live.changed(row.userId ? [row.userId, STAFF] : [STAFF], [
        'tickets',
        'staff-tickets',
        'notifications',
      ]);
      return toTicket(row);
    },
  );
}
