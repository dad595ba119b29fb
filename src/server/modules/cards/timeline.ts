import { and, asc, eq } from 'drizzle-orm';
import { railLabel } from '../../../shared/disbursements';
import type { TimelineEntry } from '../../../shared/fair-dealing';
import { offerHeadline } from '../../../shared/fair-dealing-text';
import { formatMoney } from '../../../shared/money';
import { rejectionText } from '../../../shared/rejections';
import type { Db } from '../../db/client';
import { auditLog, transactions, users } from '../../db/schema';

type Changes = Record<string, { from: unknown; to: unknown } | undefined>;

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * A card's status timeline (decision 073), built from its audit trail: submitted, in review,
 * offer made and its answer, approved, payment sent, rejected with its reason, appealed, appeal
 * decided. Each step has its time; `by` (who did it: a staff email, the customer's, or "system")
 * only when asked, for staff. Null when there is no such card (or not the customer's).
 */
export async function cardTimeline(
  db: Db,
  id: string,
  options: { ownerId?: string; withBy: boolean },
): Promise<TimelineEntry[] | null> {
  const [card] = await db
    .select({
      createdAt: transactions.createdAt,
      customerEmail: users.email,
    })
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .where(
      and(
        eq(transactions.id, id),
        options.ownerId ? eq(transactions.userId, options.ownerId) : undefined,
      ),
    );
  if (!card) return null;
  const rows = await db
    .select({
      action: auditLog.action,
      actorEmail: auditLog.actorEmail,
      changes: auditLog.changes,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'transaction'), eq(auditLog.entityId, id)))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));

  const steps: TimelineEntry[] = [];
  const add = (step: TimelineEntry['step'], at: Date, by: string, detail?: string) =>
    steps.push({
      step,
      at: at.toISOString(),
      ...(detail ? { detail } : {}),
      ...(options.withBy ? { by } : {}),
    });
  add('submitted', card.createdAt, card.customerEmail);

  for (const row of rows) {
    const changes = row.changes as Changes;
    const at = row.createdAt;
    const by = row.actorEmail;
    const status = text(changes.status?.to);
    const reason = text(changes.rejectionReason?.to);
    const note = text(changes.rejectionNote?.to);
    switch (row.action) {
      case 'offer': {
        if (status === 'processing') add('in_review', at, by);
        const offer = changes.offer?.to as { amount?: string; verifiedValue?: string } | undefined;
        add(
          'offer_made',
          at,
          by,
          offer?.amount && offer.verifiedValue
            ? offerHeadline({ amount: offer.amount, verifiedValue: offer.verifiedValue })
            : undefined,
        );
        continue;
      }
      case 'offer_accepted': {
        const amount = text(changes.paymentAmount?.to);
        add('offer_accepted', at, by, amount ? `Payment amount ${formatMoney(amount)}` : undefined);
        continue;
      }
      case 'offer_declined':
      case 'offer_expired':
        add(row.action, at, by);
        add(
          'rejected',
          at,
          by,
          reason ? rejectionText(reason, null) + (note ? ` (${note})` : '') : undefined,
        );
        continue;
      case 'appeal':
        add('appealed', at, by);
        continue;
      case 'withdraw':
        add('withdrawn', at, by);
        continue;
      // A payout on an automatic rail (issue 40): queued, sent with the rail's reference,
      // confirmed, or failed with its reason.
      case 'payout_queued':
        add('payout_queued', at, by, `To be sent by ${railLabel(text(changes.rail?.to) ?? '')}`);
        continue;
      case 'payout_submitted': {
        const amount = text(changes.paymentAmount?.to);
        const reference = text(changes.payoutReference?.to);
        const detail = [amount ? formatMoney(amount) : null, reference].filter(Boolean);
        add('payment_sent', at, by, detail.length > 0 ? detail.join(' · ') : undefined);
        continue;
      }
      case 'payout_confirmed':
        add('payment_confirmed', at, by);
        continue;
      case 'payout_failed':
        add('payout_failed', at, by, text(changes.payoutError?.to) ?? undefined);
        continue;
      case 'appeal_decision': {
        const decision = text(changes.appealStatus?.to);
        const decisionNote = text(changes.appealNote?.to);
        add(
          'appeal_decided',
          at,
          by,
          decision === 'overturned'
            ? `Overturned: the card is back in review${decisionNote ? `. ${decisionNote}` : ''}`
            : `Upheld${decisionNote ? `: ${decisionNote}` : ''}`,
        );
        // Back to pending since decision 105; to processing before it.
        if (status === 'pending' || status === 'processing') add('in_review', at, by);
        continue;
      }
    }
    // A staff edit or a payout: its status and its payment. Processing and completed both mean
    // approved (the seller reads "Approved (awaiting payment)", decision 060): the step is the
    // first of them, not the completion that staff often set when they pay (issue 43, 20).
    const approvedBefore =
      changes.status?.from === 'processing' || changes.status?.from === 'completed';
    if ((status === 'processing' || status === 'completed') && !approvedBefore) {
      add('approved', at, by);
    }
    if (status === 'rejected') {
      add('rejected', at, by, reason ? rejectionText(reason, note) : undefined);
    }
    const payment = text(changes.paymentStatus?.to);
    if (
      (payment === 'sent' || payment === 'confirmed') &&
      changes.paymentStatus?.from === 'pending'
    ) {
      const amount = text(changes.paymentAmount?.to);
      add('payment_sent', at, by, amount ? formatMoney(amount) : undefined);
    }
  }
  return steps;
}
