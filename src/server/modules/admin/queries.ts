import { desc, eq, sql } from 'drizzle-orm';
import { afterCursor, cursorColumn, toPage } from '../../common/cursor';
import type { Db } from '../../db/client';
import { chatConversations, chatMessages, feedback, transactions, users } from '../../db/schema';

export async function adminStats(db: Db) {
  const [totalTransactions, pendingReview, totalUsers, userMessages, [ratings], [unread]] =
    await Promise.all([
      db.$count(transactions),
      db.$count(transactions, eq(transactions.status, 'pending')),
      db.$count(users),
      db.$count(chatMessages, eq(chatMessages.senderType, 'user')),
      db
        .select({
          average: sql<string | null>`round(avg(${feedback.rating}), 1)::text`,
          count: sql<number>`count(*)::int`,
        })
        .from(feedback)
        .where(eq(feedback.type, 'transaction')),
      // One row per conversation, its unread count kept by triggers (migration 0012).
      db
        .select({ n: sql<number>`coalesce(sum(${chatConversations.unreadCount}), 0)::int` })
        .from(chatConversations),
    ]);
  return {
    totalTransactions,
    pendingReview,
    totalUsers,
    chatMessages: userMessages,
    averageRating: ratings?.average ?? null,
    ratingCount: ratings?.count ?? 0,
    unreadChatMessages: unread?.n ?? 0,
  };
}

const adminUserColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  isAdmin: users.isAdmin,
  emailVerified: sql<boolean>`${users.emailVerifiedAt} is not null`,
  // Qualified by hand: with one table in FROM, Drizzle writes its columns unqualified.
  scamCheckRefusals: sql<number>`(select count(*)::int from scam_check_refusals s
    where s.user_id = "users"."id")`,
  lastScamCheckRefusalAt: sql<string | null>`(select to_json(max(s.created_at)) #>> '{}'
    from scam_check_refusals s where s.user_id = "users"."id")`,
  createdAt: users.createdAt,
  standing: sql<'active' | 'suspended' | 'closed'>`${users.standing}`,
  verificationLevel: users.verificationLevel,
  standingReason: users.standingReason,
};

const toAdminUser = <T extends { createdAt: Date; lastScamCheckRefusalAt: string | null }>(
  u: T,
) => ({
  ...u,
  lastScamCheckRefusalAt: u.lastScamCheckRefusalAt
    ? new Date(u.lastScamCheckRefusalAt).toISOString()
    : null,
  createdAt: u.createdAt.toISOString(),
});

/** One customer as the Users tab shows them. */
export async function findAdminUser(db: Db, id: string) {
  const [row] = await db.select(adminUserColumns).from(users).where(eq(users.id, id));
  return row ? toAdminUser(row) : null;
}

/** Customers, newest first, a page at a time. */
export async function listAdminUsers(db: Db, options: { cursor?: string; limit: number }) {
  const rows = await db
    .select({ ...adminUserColumns, cursorCreatedAt: cursorColumn(users.createdAt) })
    .from(users)
    .where(options.cursor ? afterCursor(options.cursor, users.createdAt, users.id) : undefined)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(options.limit + 1);
  const { items, nextCursor } = toPage(rows, options.limit);
  return { items: items.map(toAdminUser), nextCursor };
}
