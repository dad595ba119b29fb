import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NEXT_CURSOR_HEADER } from '../../../shared/admin';
import {
  adminTicketSchema,
  adminTicketsQuerySchema,
  adminTicketThreadSchema,
  createTicketSchema,
  ticketReplyInputSchema,
  ticketReplySchema,
  ticketSchema,
  ticketThreadSchema,
  updateTicketSchema,
} from '../../../shared/support';
import { recordAudit } from '../../common/audit';
import { afterCursor, cursorColumn, toPage } from '../../common/cursor';
import { notify, ticketNotice } from '../../common/notify';
import { supportTickets, users } from '../../db/schema';
import { STAFF } from '../../live/hub';
import { accountOf, requireCustomer, requireSignedIn, requireStaff } from '../../plugins/auth';
import { notFound } from '../../plugins/errors';
import { HOUR, limit } from '../../plugins/rate-limit';
import { addTicketReply, ticketThread, toTicket } from './queries';

const ticketParams = z.object({ id: z.string() });

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
    '/api/support-tickets/:id',
    {
      onRequest: requireCustomer,
      config: { live: { topic: 'tickets' } },
      schema: { params: ticketParams, response: { 200: ticketThreadSchema } },
    },
    async (request) => ticketThread(app.db, request.params.id, accountOf(request).id),
  );

  r.post(
    '/api/support-tickets/:id/replies',
    {
      onRequest: requireCustomer,
      config: {
        rateLimit: limit(
          'ticket-reply',
          app.config.limits.ticketRepliesPerHour,
          HOUR,
          (request) => accountOf(request).id,
          'You have sent many replies in the last hour; we will answer those first.',
        ),
      },
      schema: {
        params: ticketParams,
        body: ticketReplyInputSchema,
        response: { 201: ticketReplySchema },
      },
    },
    async (request, reply) => {
      const customer = accountOf(request);
      const { reply: created } = await addTicketReply(
        app,
        customer,
        request.params.id,
        request.body.message,
      );
      // Open staff pages refetch the list, where the ticket now waits for an answer.
      app.live.changed([customer.id, STAFF], ['tickets', 'staff-tickets']);
      return reply.code(201).send(created);
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

  r.get(
    '/api/admin/support-tickets/:id',
    {
      onRequest: requireStaff,
      config: { live: { topic: 'staff-tickets', scope: 'staff' } },
      schema: { params: ticketParams, response: { 200: adminTicketThreadSchema } },
    },
    async (request) => ticketThread(app.db, request.params.id),
  );

  r.post(
    '/api/admin/support-tickets/:id/replies',
    {
      onRequest: requireStaff,
      schema: {
        params: ticketParams,
        body: ticketReplyInputSchema,
        response: { 201: ticketReplySchema },
      },
    },
    async (request, reply) => {
      const { reply: created, customerId } = await addTicketReply(
        app,
        accountOf(request),
        request.params.id,
        request.body.message,
      );
      app.live.changed(customerId ? [customerId, STAFF] : [STAFF], [
        'tickets',
        'staff-tickets',
        'notifications',
      ]);
      return reply.code(201).send(created);
    },
  );

  r.patch(
    '/api/admin/support-tickets/:id',
    {
      onRequest: requireStaff,
      schema: {
        params: ticketParams,
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
