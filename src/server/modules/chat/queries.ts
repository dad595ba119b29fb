import { asc, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { AdminChatMessage, AdminConversation, ChatMessage } from '../../../shared/support';
import { customerColumns } from '../../common/accounts';
import { afterLeadingCursor, cursorColumn, toPage } from '../../common/cursor';
import { BatchLoader, groupBy } from '../../db/batch';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { mappedOnce } from '../../db/rows';
import { chatConversations, chatMessages, users } from '../../db/schema';

/** The staff list carries the newest messages of every conversation, up to this many. */
export const ADMIN_CHAT_LIMIT = 2000;

type Row = typeof chatMessages.$inferSelect;

export const toChatMessage = (row: Row): ChatMessage => ({
  ...row,
  senderType: row.senderType as ChatMessage['senderType'],
  attachmentType: row.attachmentType as ChatMessage['attachmentType'],
  createdAt: row.createdAt.toISOString(),
});

/**
 * Customers' conversations, oldest first: every customer asked for at once in one statement
 * (db/batch.ts), the rows grouped by customer.
 */
const conversationLoader = (db: Db) =>
  prepared(db, 'chat-conversation', (db) => {
    const statement = mappedOnce(
      db
        .select()
        .from(chatMessages)
        .where(sql`${chatMessages.userId} = any(${sql.placeholder('userIds')}::uuid[])`)
        .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
        .prepare('chat-conversation-many'),
    );
    return new BatchLoader(
      async (userIds: string[]) => groupBy(await statement.execute({ userIds }), (r) => r.userId),
      () => [],
    );
  });

/** One customer's conversation, oldest first. */
export async function conversation(db: Db, userId: string) {
  const rows = await conversationLoader(db).load(userId);
  return rows.map(toChatMessage);
}

/** Every conversation's messages for staff, newest first (spec section 7). */
export async function allChats(db: Db): Promise<AdminChatMessage[]> {
  const rows = await db
    .select({
      ...getTableColumns(chatMessages),
      ...customerColumns,
    })
    .from(chatMessages)
    .innerJoin(users, eq(users.id, chatMessages.userId))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(ADMIN_CHAT_LIMIT);
  return rows.map((row) => ({ ...row, ...toChatMessage(row) }));
}

export async function countChatMessages(db: Db) {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(chatMessages);
  return row!.n;
}

/**
 * Conversations for staff, one row per customer, a page at a time: those whose last message is
 * the customer's first (staff owe them an answer), the longest-waiting first (decision 073), then
 * the rest, the latest message first. The index (needs_reply, last_message_at, user_id) serves
 * both halves of the order and the cursor.
 */
export async function listConversations(db: Db, options: { cursor?: string; limit: number }) {
  const c = chatConversations;
  const rows = await db
    .select({
      id: c.userId,
      ...customerColumns,
      lastMessage: c.lastMessage,
      lastSenderType: c.lastSenderType,
      lastAttachmentType: c.lastAttachmentType,
      lastMessageAt: c.lastMessageAt,
      messageCount: c.messageCount,
      customerMessageCount: c.customerMessageCount,
      unreadCount: c.unreadCount,
      // Generated from last_sender_type, which is never null.
      cursorFlag: sql<boolean>`${c.needsReply}`,
      cursorCreatedAt: cursorColumn(c.lastMessageAt),
    })
    .from(c)
    .innerJoin(users, eq(users.id, c.userId))
    .where(
      options.cursor
        ? afterLeadingCursor(
            options.cursor,
            sql`${c.needsReply}`,
            c.lastMessageAt,
            c.lastMessageAt,
            c.userId,
          )
        : undefined,
    )
    // Needing a reply first, the longest-waiting first among them (decision 073); then the
    // rest, the latest first.
    .orderBy(
      desc(c.needsReply),
      asc(sql`case when ${c.needsReply} then ${c.lastMessageAt} end`),
      asc(sql`case when ${c.needsReply} then ${c.userId} end`),
      desc(c.lastMessageAt),
      desc(c.userId),
    )
    .limit(options.limit + 1);
  const page = toPage(rows, options.limit);
  return {
    items: page.items.map(
      ({ id, ...row }): AdminConversation => ({
        ...row,
        userId: id,
        lastSenderType: row.lastSenderType as AdminConversation['lastSenderType'],
        lastAttachmentType: row.lastAttachmentType as AdminConversation['lastAttachmentType'],
        lastMessageAt: row.lastMessageAt.toISOString(),
        needsReply: row.lastSenderType === 'user',
      }),
    ),
    nextCursor: page.nextCursor,
  };
}
