import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { formatMoney } from '../../shared/money';
import { rejectionText } from '../../shared/rejections';
import { paymentStatusLabel, statusLabel, ticketStatusLabel } from '../../shared/statuses';
import type { Db } from '../db/client';
import { notificationEmails, notifications, users } from '../db/schema';
import { unsubscribeOf } from '../mail/unsubscribe';
import { type Change, type CommandContext, change } from './command';

export interface Notice {
  kind: 'transaction' | 'chat' | 'ticket' | 'verification' | 'account' | 'rate';
  title: string;
  body: string;
  link: string;
}

/**
 * Tells a customer what staff did: an in-app notification, and (unless they switched emails off)
 * an email a little later that gathers every notice of that minute. Call it inside the database
 * transaction of the change; it answers the change to publish after the commit (a command adds it
 * to what it changed).
 */
export async function notify(
  context: Pick<CommandContext, 'now' | 'config'>,
  tx: Db,
  userId: string,
  notice: Notice,
): Promise<Change> {
  const now = context.now();
  await tx.insert(notifications).values({ userId, ...notice, createdAt: new Date(now) });
  // The first notice of a quiet spell sets when the email goes; later ones join that email.
  await tx
    .insert(notificationEmails)
    .values({ userId, dueAt: new Date(now + context.config.mail.notificationDelayMs) })
    .onConflictDoNothing();
  return change([userId], ['notifications']);
}

const clip = (text: string, length: number) =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;

/** A sentence: a full stop added unless the text ends with its own. */
const sentence = (text: string) => (/[.!?…]$/.test(text) ? text : `${text}.`);

/**
 * A staff change to a card, in the customer's words: what it is now, and what changed. `card` is
 * as it is after the change; a rejection says why.
 */
export function transactionNotice(
  card: {
    id: string;
    cardType: string;
    cardValue: string;
    rejectionReason?: string | null;
    rejectionNote?: string | null;
  },
  changes: Record<string, { from: unknown; to: unknown }>,
): Notice | null {
  const lines: string[] = [];
  const status = changes.status?.to as string | undefined;
  const payment = changes.paymentStatus?.to as string | undefined;
  const reasonChanged = 'rejectionReason' in changes || 'rejectionNote' in changes;
  if (status) lines.push(`Status: ${statusLabel(status)}.`);
  if (card.rejectionReason && (status === 'rejected' || reasonChanged)) {
    lines.push(
      sentence(`Reason: ${rejectionText(card.rejectionReason, card.rejectionNote ?? null)}`),
    );
  }
  if (payment) lines.push(`Payment: ${paymentStatusLabel(payment)}.`);
  if ('paymentAmount' in changes) {
    const amount = changes.paymentAmount!.to as string | null;
    lines.push(
      amount === null ? 'Payment amount removed.' : `Payment amount: ${formatMoney(amount)}.`,
    );
  }
  if (lines.length === 0) return null;
  const headline = status
    ? statusLabel(status)
    : payment
      ? paymentStatusLabel(payment)
      : reasonChanged && card.rejectionReason
        ? 'Rejection reason updated'
        : 'Updated';
  return {
    kind: 'transaction',
    title: clip(`${card.cardType} card of ${formatMoney(card.cardValue)}: ${headline}`, 200),
    body: lines.join(' '),
    // The card itself: History with its detail open.
    link: `/history?card=${card.id}`,
  };
}

export const chatReplyNotice = (message: string, attachment: boolean): Notice => ({
  kind: 'chat',
  title: 'Support replied to you',
  body: clip(message.trim() || (attachment ? 'Sent you an attachment.' : ''), 300),
  link: '/chat',
});

export const ticketNotice = (subject: string, status: string): Notice => ({
  kind: 'ticket',
  title: clip(`Ticket “${subject}”: ${ticketStatusLabel(status)}`, 200),
  body: `Your support ticket is now ${ticketStatusLabel(status)}.`,
  link: '/support',
});

/** A staff answer in a ticket's thread; the link opens that thread on Contact Support. */
export const ticketReplyNotice = (
  ticket: { id: string; subject: string },
  message: string,
): Notice => ({
  kind: 'ticket',
  title: clip(`Support replied to “${ticket.subject}”`, 200),
  body: clip(message.trim(), 300),
  link: `/support?ticket=${ticket.id}`,
});

const DIGESTS_PER_BATCH = 20;

/**
 * Sends the emails that are due: for each customer whose minute has passed, one email with every
 * notice not yet emailed. Each batch is one database transaction (the due rows are claimed with
 * SKIP LOCKED, so instances share the work and nothing goes twice or is lost).
 */
export async function sendDueNotificationEmails(app: FastifyInstance): Promise<number> {
  let sent = 0;
  for (;;) {
    const now = new Date(app.now());
    const claimed = await app.db.transaction(async (tx) => {
      const due = await tx
        .delete(notificationEmails)
        .where(
          inArray(
            notificationEmails.userId,
            sql`(select ${notificationEmails.userId} from ${notificationEmails}
                  where ${notificationEmails.dueAt} <= ${now}
                  order by ${notificationEmails.dueAt} limit ${DIGESTS_PER_BATCH}
                  for update skip locked)`,
          ),
        )
        .returning({ userId: notificationEmails.userId });
      if (due.length === 0) return 0;
      const ids = due.map((d) => d.userId);
      const rows = await tx
        .update(notifications)
        .set({ emailedAt: now })
        .where(and(inArray(notifications.userId, ids), isNull(notifications.emailedAt)))
        .returning({
          userId: notifications.userId,
          title: notifications.title,
          body: notifications.body,
          link: notifications.link,
          createdAt: notifications.createdAt,
        });
      const recipients = await tx
        .select({
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          wantsEmail: users.emailNotifications,
        })
        .from(users)
        .where(inArray(users.id, ids));
      for (const user of recipients) {
        const items = rows
          .filter((r) => r.userId === user.id)
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
        if (!user.wantsEmail || items.length === 0) continue;
        // An optional email: it carries its one-click unsubscribe (RFC 8058).
        const unsubscribe = unsubscribeOf(app.config, user.id, 'statusUpdates');
        await app.mail.send(
          user.email,
          'notifications',
          {
            firstName: user.firstName,
            items: items.map((i) => ({
              title: i.title,
              body: i.body,
              url: `${app.config.appUrl}${i.link}`,
            })),
            settingsUrl: `${app.config.appUrl}/profile`,
            unsubscribeUrl: unsubscribe.url,
          },
          tx,
          { headers: unsubscribe.headers },
        );
        sent++;
      }
      return due.length;
    });
    if (claimed === 0) break;
  }
  if (sent > 0) app.mail.kick();
  return sent;
}

/** How often the emails that are due are looked for. */
const CHECK_MS = 5000;

export function startNotificationEmails(app: FastifyInstance) {
  const tick = () =>
    void sendDueNotificationEmails(app).catch((err) =>
      app.log.error({ err }, 'could not send notification emails'),
    );
  const timer = setInterval(tick, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The customer's newest notifications and how many are unread. */
export async function listNotifications(db: Db, userId: string, limit: number) {
  const [items, [unread]] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(sql`${notifications.createdAt} desc`, asc(notifications.id))
      .limit(limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt))),
  ]);
  return {
    items: items.map((n) => ({
      id: n.id,
      kind: n.kind,
      title: n.title,
      body: n.body,
      link: n.link,
      read: n.readAt !== null,
      createdAt: n.createdAt.toISOString(),
    })),
    unreadCount: unread?.n ?? 0,
  };
}
