import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  TICKET_CLOSED_MESSAGE,
  type Ticket,
  type TicketAuthor,
  type TicketReply,
} from '../../../shared/support';
import { displayName } from '../../../shared/user-display';
import { recordAudit } from '../../common/audit';
import { notify, ticketReplyNotice } from '../../common/notify';
import type { Db } from '../../db/client';
import { supportTickets, ticketReplies, users } from '../../db/schema';
import type { Account } from '../../plugins/auth';
import { HttpError, notFound } from '../../plugins/errors';

type TicketRow = typeof supportTickets.$inferSelect;
type ReplyRow = typeof ticketReplies.$inferSelect;

/** A ticket as its customer sees it (the account it belongs to stays on the server). */
export const toTicket = ({ userId: _u, ...row }: TicketRow): Ticket => ({
  ...row,
  lastReplyBy: row.lastReplyBy as TicketAuthor,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const toReply = (row: ReplyRow): TicketReply => ({
  id: row.id,
  authorKind: row.authorKind as TicketAuthor,
  authorName: row.authorName,
  message: row.message,
  createdAt: row.createdAt.toISOString(),
});

const TICKET_NOT_FOUND = 'Ticket not found';

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
    userId: row.ticket.userId,
    userFirstName: row.userFirstName,
    userLastName: row.userLastName,
    replies: await repliesOf(db, id),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (id: string) => UUID.test(id);

/**
 * Adds a reply to a ticket's thread, in one database transaction with the ticket's last writer,
 * reply count and update time. A customer writes only in their own tickets (404 otherwise), not
 * in a closed one (409), and their reply to a resolved ticket opens it again, audited as a status
 * change by them. A staff reply notifies the customer (bell and email). Returns the reply and the
 * customer the ticket belongs to (null once their account is gone).
 */
export async function addTicketReply(
  app: FastifyInstance,
  author: Account,
  ticketId: string,
  message: string,
): Promise<{ reply: TicketReply; customerId: string | null }> {
  if (!isUuid(ticketId)) throw notFound(TICKET_NOT_FOUND);
  const staff = author.isAdmin;
  const authorKind: TicketAuthor = staff ? 'admin' : 'user';
  return app.db.transaction(async (tx) => {
    const t = supportTickets;
    const [ticket] = await tx
      .select()
      .from(t)
      .where(and(eq(t.id, ticketId), staff ? undefined : eq(t.userId, author.id)))
      .for('update');
    if (!ticket) throw notFound(TICKET_NOT_FOUND);
    let status = ticket.status;
    if (!staff && ticket.status === 'closed') throw new HttpError(409, TICKET_CLOSED_MESSAGE);
    if (!staff && ticket.status === 'resolved') {
      status = 'open';
      await recordAudit(tx, author, {
        entityType: 'support_ticket',
        entityId: ticket.id,
        action: 'reopen',
        changes: { status: { from: ticket.status, to: status } },
      });
    }
    const [reply] = await tx
      .insert(ticketReplies)
      .values({
        ticketId: ticket.id,
        authorKind,
        authorId: author.id,
        // Staff sign with their name as it is today; the customer is the ticket's owner.
        authorName: staff ? displayName(author) : null,
        message,
        // Taken under the ticket's lock, not at the transaction's start: the thread's order is
        // the order the replies were written in, the last of which is `last_reply_by`.
        createdAt: sql`clock_timestamp()`,
      })
      .returning();
    await tx
      .update(t)
      .set({
        status,
        lastReplyBy: authorKind,
        replyCount: sql`${t.replyCount} + 1`,
        updatedAt: new Date(app.now()),
      })
      .where(eq(t.id, ticket.id));
    if (staff && ticket.userId) {
      await notify(app, tx, ticket.userId, ticketReplyNotice(ticket, message));
    }
    return { reply: toReply(reply!), customerId: ticket.userId };
  });
}
