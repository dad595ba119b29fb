import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { isUuid } from '../../../shared/ids';
import type { Ticket, TicketAuthor, TicketReply } from '../../../shared/support';
import { afterLeadingCursor, toPage } from '../../common/cursor';
import { notFound } from '../../common/http-error';
import type { Db } from '../../db/client';
import { supportTickets, ticketReplies, users } from '../../db/schema';

type TicketRow = typeof supportTickets.$inferSelect;
type ReplyRow = typeof ticketReplies.$inferSelect;

/** A ticket as its customer sees it (the account it belongs to stays on the server). */
export const toTicket = ({ userId: _u, ...row }: TicketRow): Ticket => ({
  ...row,
  lastReplyBy: row.lastReplyBy as TicketAuthor,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const toReply = (row: ReplyRow): TicketReply => ({
  id: row.id,
  authorKind: row.authorKind as TicketAuthor,
  authorName: row.authorName,
  message: row.message,
  createdAt: row.createdAt.toISOString(),
});

export const TICKET_NOT_FOUND = 'Ticket not found';

/** The replies after a ticket's first message, oldest first. */
export async function repliesOf(db: Db, ticketId: string) {
  const rows = await db
    .select()
    .from(ticketReplies)
    .where(eq(ticketReplies.ticketId, ticketId))
    .orderBy(asc(ticketReplies.createdAt), asc(ticketReplies.id));
  return rows.map(toReply);
}

/**
 * One ticket and its replies. With `ownerId` only that customer's ticket: another customer's is
 * answered exactly as one that does not exist (404), like an id that is not a uuid.
 */
export async function ticketThread(db: Db, id: string, ownerId?: string) {
  if (!isUuid(id)) throw notFound(TICKET_NOT_FOUND);
  const t = supportTickets;
  const [row] = await db
    .select({ ticket: t, userFirstName: users.firstName, userLastName: users.lastName })
    .from(t)
    .leftJoin(users, eq(users.id, t.userId))
    .where(and(eq(t.id, id), ownerId ? eq(t.userId, ownerId) : undefined));
  if (!row) throw notFound(TICKET_NOT_FOUND);
  return {
    ...toTicket(row.ticket),
    waitingSince: row.ticket.waitingSince.toISOString(),
    userId: row.ticket.userId,
    userFirstName: row.userFirstName,
    userLastName: row.userLastName,
    replies: await repliesOf(db, id),
  };
}

/** A customer's tickets, newest first. */
export async function customerTickets(db: Db, userId: string) {
  const rows = await db
    .select()
    .from(supportTickets)
    .where(eq(supportTickets.userId, userId))
    .orderBy(desc(supportTickets.createdAt));
  return rows.map(toTicket);
}

/**
 * Staff's page of tickets (decision 073): first those waiting for a staff reply, the
 * longest-waiting first, then the rest, newest first; so one customer's flood of new tickets
 * never pushes another's earlier one off the first page. Filters: status, and awaiting=staff.
 */
export async function staffTickets(
  db: Db,
  {
    status,
    awaiting,
    cursor,
    limit,
  }: { status?: string; awaiting?: string; cursor?: string; limit: number },
) {
  const t = supportTickets;
  const waiting = sql`(${t.lastReplyBy} = 'user' and ${t.status} in ('open', 'in_progress'))`;
  const rows = await db
    .select({
      ticket: t,
      userFirstName: users.firstName,
      userLastName: users.lastName,
      id: t.id,
      cursorFlag: sql<boolean>`${waiting}`,
      cursorCreatedAt: sql<string>`(case when ${waiting} then ${t.waitingSince} else ${t.createdAt} end)::text`,
    })
    .from(t)
    .leftJoin(users, eq(users.id, t.userId))
    .where(
      and(
        status && status !== 'all' ? eq(t.status, status) : undefined,
        awaiting === 'staff' ? waiting : undefined,
        cursor ? afterLeadingCursor(cursor, waiting, t.waitingSince, t.createdAt, t.id) : undefined,
      ),
    )
    .orderBy(
      desc(waiting),
      asc(sql`case when ${waiting} then ${t.waitingSince} end`),
      asc(sql`case when ${waiting} then ${t.id} end`),
      desc(t.createdAt),
      desc(t.id),
    )
    .limit(limit + 1);
  const { items, nextCursor } = toPage(rows, limit);
  return {
    nextCursor,
    items: items.map(({ ticket, id: _id, ...user }) => ({
      ...toTicket(ticket),
      waitingSince: ticket.waitingSince.toISOString(),
      userId: ticket.userId,
      ...user,
    })),
  };
}
