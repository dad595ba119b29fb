import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminListQuerySchema } from '../../../shared/admin';
import { isUuid } from '../../../shared/ids';
import {
  adminChatMessageSchema,
  adminConversationSchema,
  chatMessageSchema,
  markConversationReadResultSchema,
  markConversationReadSchema,
  sendChatMessageSchema,
} from '../../../shared/support';
import { sendPage } from '../../common/cursor';
import { notFound } from '../../common/http-error';
import { accountOf, requireSignedIn, requireStaff } from '../../plugins/auth';
import { limit } from '../../plugins/rate-limit';
import { clearChats, readConversation, sendChatMessage } from './commands';
import { allChats, conversation, listConversations } from './queries';

export default async function chatRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/chat/messages',
    {
      onRequest: requireSignedIn,
      config: { live: { topic: 'chat' } },
      schema: { response: { 200: z.array(chatMessageSchema) } },
    },
    async (request) => {
      const account = accountOf(request);
      // Staff accounts have no conversation of their own; they answer in the admin portal.
      return account.kind === 'user' ? conversation(app.db, account.id) : [];
    },
  );

  r.post(
    '/api/chat/messages',
    {
      onRequest: requireSignedIn,
      config: {
        rateLimit: limit('chat', app.config.limits),
      },
      schema: { body: sendChatMessageSchema, response: { 201: chatMessageSchema } },
    },
    async (request, reply) => {
      const sent = await app.run((context) =>
        sendChatMessage(context, accountOf(request), request.body),
      );
      return reply.code(201).send(sent);
    },
  );

  r.get(
    '/api/admin/chats',
    {
      onRequest: requireStaff,
      config: { capability: 'chat', live: { topic: 'chats', scope: 'staff' } },
      schema: { response: { 200: z.array(adminChatMessageSchema) } },
    },
    async () => allChats(app.db),
  );

  r.get(
    '/api/admin/conversations',
    {
      onRequest: requireStaff,
      config: { capability: 'chat', live: { topic: 'chats', scope: 'staff' } },
      schema: {
        querystring: adminListQuerySchema.pick({ cursor: true, limit: true }),
        response: { 200: z.array(adminConversationSchema) },
      },
    },
    async (request, reply) => {
      return sendPage(reply, await listConversations(app.db, request.query));
    },
  );

  r.get(
    '/api/admin/conversations/:userId',
    {
      onRequest: requireStaff,
      config: { capability: 'chat', live: { topic: 'chats', scope: 'staff' } },
      schema: {
        params: z.object({ userId: z.string() }),
        response: { 200: z.array(chatMessageSchema) },
      },
    },
    async (request) => {
      const { userId } = request.params;
      // Oldest first, as the customer sees it; no conversation (or no such customer) is empty.
      return isUuid(userId) ? conversation(app.db, userId) : [];
    },
  );

  r.post(
    '/api/admin/conversations/:userId/read',
    {
      config: { capability: 'chat' },
      schema: {
        params: z.object({ userId: z.string() }),
        body: markConversationReadSchema,
        response: { 200: markConversationReadResultSchema },
      },
    },
    async (request) => {
      const { userId } = request.params;
      if (!isUuid(userId)) throw notFound('Conversation not found');
      return app.run((context) => readConversation(context, userId, request.body.throughMessageId));
    },
  );

  r.delete(
    '/api/admin/chats',
    {
      config: { capability: 'chat.clear' },
      schema: { response: { 200: z.object({ success: z.literal(true), deleted: z.number() }) } },
    },
    async (request) => {
      const deleted = await app.run((context) => clearChats(context, accountOf(request)));
      return { success: true as const, deleted };
    },
  );
}
