import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { formatMoney } from '../../../shared/money';
import { transactions, users } from '../../db/schema';
import { unsubscribeOf } from '../../mail/unsubscribe';
import { AWAITING_PAYMENT, PAID, PAYOUT_DUE } from '../cards';

/** The weekly summary covers the 7 days before it is sent, and goes once a week. */
export const DIGEST_PERIOD_MS = 7 * 24 * 60 * 60 * 1000;
/** Customers read and mailed per statement. */
const DIGEST_BATCH = 500;

export interface DigestFigures {
  submitted: number;
  paidCount: number;
  paidSum: string;
  rejected: number;
  underReview: number;
  awaitingPayment: string;
}

/** The lines of one customer's week, in the order the email lists them. */
export function digestLines(f: DigestFigures): string[] {
  const lines = [`Cards submitted: ${f.submitted}`];
  if (f.paidCount > 0) {
    lines.push(
      `Paid to you: ${formatMoney(f.paidSum)} (${f.paidCount} card${f.paidCount === 1 ? '' : 's'})`,
    );
  }
  if (f.rejected > 0) lines.push(`Rejected: ${f.rejected}`);
  if (f.underReview > 0) lines.push(`Still under review: ${f.underReview}`);
  if (f.awaitingPayment !== '0.00') {
    lines.push(`Approved and awaiting payment: ${formatMoney(f.awaitingPayment)}`);
  }
  return lines;
}

/**
 * The weekly digest (issue 22, decision 074's optional emails): to every customer who keeps
 * digests on and whose cards moved in the last 7 days (submitted, decided or paid), one email
 * with the week's figures and the money still to come, carrying its one-click unsubscribe.
 * Customers with nothing new get nothing. Read a page of customers at a time; the job runs once a
 * week across all instances (main.ts), so a customer gets one digest a week.
 */
export async function sendWeeklyDigests(app: FastifyInstance): Promise<number> {
  const now = new Date(app.now());
  const since = new Date(now.getTime() - DIGEST_PERIOD_MS);
  const inWeek = (column: AnyPgColumn) => sql`${column} > ${since}`;
  let sent = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await app.db
      .select({
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        submitted: sql<number>`(count(*) filter (where ${inWeek(transactions.createdAt)}))::int`,
        paidCount: sql<number>`(count(*) filter (where ${PAID} and ${inWeek(transactions.paidAt)}))::int`,
        paidSum: sql<string>`coalesce(sum(${transactions.paymentAmount}) filter (where ${PAID} and ${inWeek(transactions.paidAt)}), 0)::numeric(12,2)::text`,
        rejected: sql<number>`(count(*) filter (where ${transactions.status} = 'rejected' and ${inWeek(transactions.rejectedAt)}))::int`,
        underReview: sql<number>`(count(*) filter (where ${transactions.status} = 'pending'))::int`,
        awaitingPayment: sql<string>`coalesce(sum(${PAYOUT_DUE}) filter (where ${AWAITING_PAYMENT}), 0)::numeric(12,2)::text`,
        moved: sql<number>`(count(*) filter (where ${or(
          inWeek(transactions.createdAt),
          inWeek(transactions.firstDecisionAt),
          inWeek(transactions.paidAt),
          inWeek(transactions.rejectedAt),
        )}))::int`,
      })
      .from(users)
      .innerJoin(transactions, eq(transactions.userId, users.id))
      .where(and(eq(users.emailDigests, true), eq(users.isAdmin, false), gt(users.id, after)))
      .groupBy(users.id)
      .orderBy(asc(users.id))
      .limit(DIGEST_BATCH);
    if (rows.length === 0) break;
    after = rows.at(-1)!.id;
    for (const row of rows) {
      if (row.moved === 0) continue;
      const unsubscribe = unsubscribeOf(app.config, row.id, 'digests');
      await app.mail.send(
        row.email,
        'weekly-digest',
        {
          firstName: row.firstName,
          lines: digestLines(row),
          historyUrl: `${app.config.appUrl}/history`,
          settingsUrl: `${app.config.appUrl}/profile`,
          unsubscribeUrl: unsubscribe.url,
        },
        app.db,
        { headers: unsubscribe.headers },
      );
      sent++;
    }
    if (rows.length < DIGEST_BATCH) break;
  }
  if (sent > 0) app.mail.kick();
  return sent;
}
