import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import { sendPage } from '../../common/cursor';
import { accountOf, requireCustomer, requireSignedIn, requireStaff } from '../../plugins/auth';
import { limit } from '../../plugins/rate-limit';
import { addTicketReply, fileTicket, setTicketStatus } from './commands';
import { customerTickets, staffTickets, ticketThread } from './queries';

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
      return account.kind === 'user' ? customerTickets(app.db, account.id) : [];
    },
  );

  r.post(
    '/api/support-tickets',
    {
      onRequest: requireCustomer,
      config: {
        rateLimit: limit('ticket', app.config.limits),
      },
      schema: { body: createTicketSchema, response: { 201: ticketSchema } },
    },
    async (request, reply) => {
      const userId = accountOf(request).id;
      const ticket = await app.run((context) => fileTicket(context, userId, request.body));
      return reply.code(201).send(ticket);
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

  /**
   * A reply in a ticket's thread: the customer's in their own tickets (limited per hour), staff's
   * in any. One handler; addTicketReply tells the two apart by the account.
   */
  const replySchema = {
    params: ticketParams,
    body: ticketReplyInputSchema,
    response: { 201: ticketReplySchema },
  };
  const addReply = async (
    request: FastifyRequest<{ Params: { id: string }; Body: { message: string } }>,
    reply: FastifyReply,
  ) => {
    const { id } = request.params;
    const created = await app.run((context) =>
      addTicketReply(context, accountOf(request), id, request.body.message),
    );
    return reply.code(201).send(created);
  };

  r.post(
    '/api/support-tickets/:id/replies',
    {
      onRequest: requireCustomer,
      config: {
        rateLimit: limit('ticket-reply', app.config.limits),
      },
      schema: replySchema,
    },
    addReply,
  );

  r.get(
    '/api/admin/support-tickets',
    {
      onRequest: requireStaff,
      config: { capability: 'tickets', live: { topic: 'staff-tickets', scope: 'staff' } },
      schema: {
        querystring: adminTicketsQuerySchema,
        response: { 200: z.array(adminTicketSchema) },
      },
    },
    async (request, reply) => {
      return sendPage(reply, await staffTickets(app.db, request.query));
    },
  );

  r.get(
    '/api/admin/support-tickets/:id',
    {
      onRequest: requireStaff,
      config: { capability: 'tickets', live: { topic: 'staff-tickets', scope: 'staff' } },
      schema: { params: ticketParams, response: { 200: adminTicketThreadSchema } },
    },
    async (request) => ticketThread(app.db, request.params.id),
  );

  r.post(
    '/api/admin/support-tickets/:id/replies',
    { config: { capability: 'tickets' }, schema: replySchema },
    addReply,
  );

  r.patch(
    '/api/admin/support-tickets/:id',
    {
      config: { capability: 'tickets' },
      schema: {
        params: ticketParams,
        body: updateTicketSchema,
        response: { 200: ticketSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      return app.run((context) =>
        setTicketStatus(context, accountOf(request), id, request.body.status),
      );
    },
  );
}
