import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminListQuerySchema, NEXT_CURSOR_HEADER } from '../../../shared/admin';
import {
  adminChatMessageSchema,
  adminConversationSchema,
  chatMessageSchema,
  markConversationReadResultSchema,
  markConversationReadSchema,
  sendChatMessageSchema,
} from '../../../shared/support';
import { displayName } from '../../../shared/user-display';
import { recordAudit } from '../../common/audit';
import { chatReplyNotice, notify } from '../../common/notify';
import { chatMessages, users } from '../../db/schema';
import { STAFF } from '../../live/hub';
import { accountOf, requireSignedIn, requireStaff } from '../../plugins/auth';
import { badRequest, notFound } from '../../plugins/errors';
import { limit, MINUTE } from '../../plugins/rate-limit';
import { claimChatAttachment, deleteChatUploads } from '../files/uploads';
import {
  allChats,
  conversation,
  countChatMessages,
  listConversations,
  markConversationRead,
  toChatMessage,
} from './queries';

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
        rateLimit: limit(
          'chat',
          app.config.limits.chatMessagesPerMinute,
          MINUTE,
          (request) => accountOf(request).id,
          'You are sending messages too fast.',
        ),
      },
      schema: { body: sendChatMessageSchema, response: { 201: chatMessageSchema } },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const body = request.body;
      // Who sends and in which conversation come from the session, never from the body.
      let conversationUserId = account.id;
      if (account.isAdmin) {
        const target = z.uuid().safeParse(body.userId);
        const [customer] = target.success
          ? await app.db.select({ id: users.id }).from(users).where(eq(users.id, target.data))
          : [];
        if (!customer) throw badRequest('Choose the customer to reply to', 'userId');
        conversationUserId = customer.id;
      }
      const row = await app.db.transaction(async (tx) => {
        let attachmentType: 'image' | 'other' | null = null;
        if (body.attachmentUrl) {
          attachmentType = await claimChatAttachment(
            tx,
            account,
            conversationUserId,
            body.attachmentUrl,
          );
          if (!attachmentType) throw badRequest('Attachment not found', 'attachmentUrl');
        }
        const [inserted] = await tx
          .insert(chatMessages)
          .values({
            userId: conversationUserId,
            senderType: account.isAdmin ? 'admin' : 'user',
            senderName: account.isAdmin ? displayName(account) : null,
            message: body.message.trim(),
            attachmentUrl: body.attachmentUrl || null,
            attachmentType,
          })
          .returning();
        if (account.isAdmin) {
          await notify(
            app,
            tx,
            conversationUserId,
            chatReplyNotice(inserted!.message, !!inserted!.attachmentUrl),
          );
        }
        return inserted!;
      });
      app.live.changed(
        [conversationUserId, STAFF],
        ['chat', 'chats', 'admin-stats', ...(account.isAdmin ? (['notifications'] as const) : [])],
      );
      return reply.code(201).send(toChatMessage(row));
    },
  );

  r.get(
    '/api/admin/chats',
    {
      onRequest: requireStaff,
      config: { live: { topic: 'chats', scope: 'staff' } },
      schema: { response: { 200: z.array(adminChatMessageSchema) } },
    },
    async () => allChats(app.db),
  );

  r.get(
    '/api/admin/conversations',
    {
      onRequest: requireStaff,
      config: { live: { topic: 'chats', scope: 'staff' } },
      schema: {
        querystring: adminListQuerySchema.pick({ cursor: true, limit: true }),
        response: { 200: z.array(adminConversationSchema) },
      },
    },
    async (request, reply) => {
      const { items, nextCursor } = await listConversations(app.db, request.query);
      if (nextCursor) reply.header(NEXT_CURSOR_HEADER, nextCursor);
      return items;
    },
  );

  r.get(
    '/api/admin/conversations/:userId',
    {
      onRequest: requireStaff,
      config: { live: { topic: 'chats', scope: 'staff' } },
      schema: {
        params: z.object({ userId: z.string() }),
        response: { 200: z.array(chatMessageSchema) },
      },
    },
    async (request) => {
      const { userId } = request.params;
      // Oldest first, as the customer sees it; no conversation (or no such customer) is empty.
      return z.uuid().safeParse(userId).success ? conversation(app.db, userId) : [];
    },
  );

  r.post(
    '/api/admin/conversations/:userId/read',
    {
      onRequest: requireStaff,
      schema: {
        params: z.object({ userId: z.string() }),
        body: markConversationReadSchema,
        response: { 200: markConversationReadResultSchema },
      },
    },
    async (request) => {
      const { userId } = request.params;
      if (!z.uuid().safeParse(userId).success) throw notFound('Conversation not found');
      const { throughMessageId } = request.body;
      const result = await markConversationRead(app.db, userId, throughMessageId);
      // The customer's own answer carries isRead too; nothing changed, nothing to tell.
      if (result.marked > 0) app.live.changed([userId, STAFF], ['chat', 'chats', 'admin-stats']);
      return result;
    },
  );

  r.delete(
    '/api/admin/chats',
    {
      onRequest: requireStaff,
      schema: { response: { 200: z.object({ success: z.literal(true), deleted: z.number() }) } },
    },
    async (request) => {
      const actor = accountOf(request);
      const deleted = await app.db.transaction(async (tx) => {
        const count = await countChatMessages(tx);
        await tx.delete(chatMessages);
        await recordAudit(tx, actor, {
          entityType: 'chat',
          entityId: null,
          action: 'clear',
          changes: { messages: { from: count, to: 0 } },
        });
        return count;
      });
      app.live.changedEverywhere(['chat']);
      app.live.changed([STAFF], ['chats', 'admin-stats']);
      await deleteChatUploads(app.db, app.storage);
      return { success: true as const, deleted };
    },
  );
}
