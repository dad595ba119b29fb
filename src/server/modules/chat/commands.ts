import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { isUuid } from '../../../shared/ids';
import type { ChatMessage, sendChatMessageSchema } from '../../../shared/support';
import { displayName } from '../../../shared/user-display';
import type { Account } from '../../common/account';
import { recordAudit } from '../../common/audit';
import {
  type Change,
  type CommandContext,
  change,
  changeEverywhere,
  type Outcome,
  STAFF,
} from '../../common/command';
import { cursorColumn } from '../../common/cursor';
import { badRequest, notFound } from '../../common/http-error';
import { chatReplyNotice, notify } from '../../common/notify';
import type { Db } from '../../db/client';
import { chatConversations, chatMessages, users } from '../../db/schema';
import { claimChatAttachment, deleteChatUploads } from '../files';
import { countChatMessages, toChatMessage } from './queries';

/** A conversation's customer and staff see it change, and staff's unread counts. */
const conversationChanged = (customerId: string) =>
  change([customerId, STAFF], ['chat', 'chats', 'admin-stats']);

/**
 * A chat message: a customer's in their own conversation, or staff's reply in the customer's
 * (`userId` names it; who sends comes from the session, never from the body). A staff reply
 * notifies the customer; an attachment must be one the sender uploaded.
 */
export async function sendChatMessage(
  context: CommandContext,
  sender: Account,
  body: z.infer<typeof sendChatMessageSchema>,
): Promise<Outcome<ChatMessage>> {
  let customerId = sender.id;
  if (sender.isAdmin) {
    const [customer] =
      body.userId && isUuid(body.userId)
        ? await context.db.select({ id: users.id }).from(users).where(eq(users.id, body.userId))
        : [];
    if (!customer) throw badRequest('Choose the customer to reply to', 'userId');
    customerId = customer.id;
  }
  return context.db.transaction(async (tx) => {
    let attachmentType: 'image' | 'other' | null = null;
    if (body.attachmentUrl) {
      attachmentType = await claimChatAttachment(tx, sender, customerId, body.attachmentUrl);
      if (!attachmentType) throw badRequest('Attachment not found', 'attachmentUrl');
    }
    const [inserted] = await tx
      .insert(chatMessages)
      .values({
        userId: customerId,
        senderType: sender.isAdmin ? 'admin' : 'user',
        senderName: sender.isAdmin ? displayName(sender) : null,
        message: body.message.trim(),
        attachmentUrl: body.attachmentUrl || null,
        attachmentType,
      })
      .returning();
    const changed: Change[] = [conversationChanged(customerId)];
    if (sender.isAdmin) {
      const notice = chatReplyNotice(inserted!.message, !!inserted!.attachmentUrl);
      changed.push(await notify(context, tx, customerId, notice));
    }
    return { value: toChatMessage(inserted!), changed };
  });
}

/** Staff read a conversation up to a message (or all of it). */
export async function readConversation(
  context: CommandContext,
  customerId: string,
  throughMessageId: string | undefined,
): Promise<Outcome<{ marked: number; unreadCount: number }>> {
  const result = await markConversationRead(context.db, customerId, throughMessageId);
  // The customer's own answer carries isRead too; nothing marked, nothing to tell.
  return { value: result, changed: result.marked > 0 ? [conversationChanged(customerId)] : [] };
}

/** Staff clear every chat (the spec's "Clear All Chats"): audited, and their files deleted. */
export async function clearChats(
  context: CommandContext,
  actor: Account,
): Promise<Outcome<number>> {
  const deleted = await context.db.transaction(async (tx) => {
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
  await deleteChatUploads(context.db, context.storage);
  return {
    value: deleted,
    changed: [changeEverywhere(['chat']), change([STAFF], ['chats', 'admin-stats'])],
  };
}

/**
 * Staff read a customer's messages: those up to and including `throughMessageId` (the newest
 * on their screen), or all. The trigger on chat_messages recounts the conversation's unread
 * count in the same statement. 404 when the customer has no conversation, 400 when the message
 * is not in it.
 */
async function markConversationRead(
  db: Db,
  userId: string,
  throughMessageId: string | undefined,
): Promise<{ marked: number; unreadCount: number }> {
  return db.transaction(async (tx) => {
    const [conversation] = await tx
      .select({ userId: chatConversations.userId })
      .from(chatConversations)
      .where(eq(chatConversations.userId, userId));
    if (!conversation) throw notFound('Conversation not found');
    const m = chatMessages;
    let through: SQL | undefined;
    if (throughMessageId) {
      const [last] = await tx
        .select({ createdAt: cursorColumn(m.createdAt) })
        .from(m)
        .where(and(eq(m.id, throughMessageId), eq(m.userId, userId)));
      if (!last) throw badRequest('Choose a message of this conversation', 'throughMessageId');
      through = sql`(${m.createdAt}, ${m.id}) <= (${last.createdAt}::timestamptz, ${throughMessageId}::uuid)`;
    }
    const marked = await tx
      .update(m)
      .set({ isRead: true })
      .where(and(eq(m.userId, userId), eq(m.senderType, 'user'), eq(m.isRead, false), through))
      .returning({ id: m.id });
    const [after] = await tx
      .select({ unreadCount: chatConversations.unreadCount })
      .from(chatConversations)
      .where(eq(chatConversations.userId, userId));
    return { marked: marked.length, unreadCount: after?.unreadCount ?? 0 };
  });
}
