import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { isUuid } from '../../../shared/ids';
import {
  type createTicketSchema,
  TICKET_ATTACHMENT_MESSAGE,
  TICKET_CLOSED_MESSAGE,
  type Ticket,
  type TicketAuthor,
  type TicketReply,
  type updateTicketSchema,
} from '../../../shared/support';
import { CHAT_OBJECT_PATH } from '../../../shared/upload-types';
import { displayName } from '../../../shared/user-display';
import type { Account } from '../../common/account';
import { recordAudit } from '../../common/audit';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError, lockOr404, notFound } from '../../common/http-error';
import { notify, ticketNotice, ticketReplyNotice } from '../../common/notify';
import { supportTickets, ticketReplies } from '../../db/schema';
import { ownedUploadKeys } from '../files';
import { TICKET_NOT_FOUND, toReply, toTicket } from './queries';

/** A ticket's customer (when their account still exists) and staff see its lists change. */
const ticketsChanged = (customerId: string | null) =>
  change(customerId ? [customerId, STAFF] : [STAFF], ['tickets', 'staff-tickets']);

/**
 * A customer files a ticket. An attachment uploaded from the form must be this customer's own
 * file (another customer's path would show staff a file that is not theirs to send).
 */
export async function fileTicket(
  context: CommandContext,
  userId: string,
  input: z.infer<typeof createTicketSchema>,
): Promise<Outcome<Ticket>> {
  if (input.attachmentUrl && CHAT_OBJECT_PATH.test(input.attachmentUrl)) {
    const key = input.attachmentUrl.slice('/objects/'.length);
    const owned = await ownedUploadKeys(context.db, userId, 'chat', [key]);
    if (!owned.has(key)) {
      throw new HttpError(400, TICKET_ATTACHMENT_MESSAGE, {
        attachmentUrl: TICKET_ATTACHMENT_MESSAGE,
      });
    }
  }
  const [row] = await context.db
    .insert(supportTickets)
    .values({ ...input, userId })
    .returning();
  return { value: toTicket(row!), changed: [ticketsChanged(userId)] };
}

/**
 * Staff set a ticket's status: audited, and the customer notified, in one database transaction.
 * Setting the status it already has changes nothing.
 */
export async function setTicketStatus(
  context: CommandContext,
  actor: Account,
  id: string,
  status: z.infer<typeof updateTicketSchema>['status'],
): Promise<Outcome<Ticket>> {
  if (!isUuid(id)) throw notFound(TICKET_NOT_FOUND);
  return context.db.transaction(async (tx) => {
    const current = await lockOr404(
      tx.select().from(supportTickets).where(eq(supportTickets.id, id)).for('update'),
      TICKET_NOT_FOUND,
    );
    if (current.status === status) return { value: toTicket(current), changed: [] };
    const [updated] = await tx
      .update(supportTickets)
      .set({ status, updatedAt: new Date(context.now()) })
      .where(eq(supportTickets.id, id))
      .returning();
    await recordAudit(tx, actor, {
      entityType: 'support_ticket',
      entityId: id,
      action: 'update',
      changes: { status: { from: current.status, to: status } },
    });
    const changed = [ticketsChanged(current.userId)];
    if (current.userId) {
      changed.push(
        await notify(context, tx, current.userId, ticketNotice(current.subject, status)),
      );
    }
    return { value: toTicket(updated!), changed };
  });
}

/**
 * Adds a reply to a ticket's thread, in one database transaction with the ticket's last writer,
 * reply count and update time. A customer writes only in their own tickets (404 otherwise), not
 * in a closed one (409), and their reply to a resolved ticket opens it again, audited as a status
 * change by them. A staff reply notifies the customer (bell and email). Returns the reply and the
 * what changed: both sides' ticket lists, and the customer's notifications for a staff reply.
 */
export async function addTicketReply(
  context: CommandContext,
  author: Account,
  ticketId: string,
  message: string,
): Promise<Outcome<TicketReply>> {
  if (!isUuid(ticketId)) throw notFound(TICKET_NOT_FOUND);
  const staff = author.isAdmin;
  const authorKind: TicketAuthor = staff ? 'admin' : 'user';
  return context.db.transaction(async (tx) => {
    const t = supportTickets;
    const ticket = await lockOr404(
      tx
        .select()
        .from(t)
        .where(and(eq(t.id, ticketId), staff ? undefined : eq(t.userId, author.id)))
        .for('update'),
      TICKET_NOT_FOUND,
    );
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
        // A customer's message starts the wait, unless one of theirs already waits unanswered.
        ...(staff
          ? {}
          : {
              waitingSince: sql`case when ${t.lastReplyBy} = 'user' then ${t.waitingSince}
                else ${new Date(context.now()).toISOString()}::timestamptz end`,
            }),
        replyCount: sql`${t.replyCount} + 1`,
        updatedAt: new Date(context.now()),
      })
      .where(eq(t.id, ticket.id));
    const changed = [ticketsChanged(ticket.userId)];
    if (staff && ticket.userId) {
      changed.push(await notify(context, tx, ticket.userId, ticketReplyNotice(ticket, message)));
    }
    return { value: toReply(reply!), changed };
  });
}
