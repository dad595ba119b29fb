import { eq, sql } from 'drizzle-orm';
import { formatMoney } from '../../shared/money';
import type { Db } from '../db/client';
import { transactions } from '../db/schema';
import { type AuditActor, auditCard } from './audit';
import type { CommandContext } from './command';
import { type Notice, notify } from './notify';

/**
 * A revised offer's end without a sale (decision 073): the customer declined it, or it expired.
 * The card is rejected with the reason `balance_differs` and a note that says which. Shared by
 * the customer's answer (cards) and the expiry job (admin); call it inside the transaction that
 * locked the card.
 */
export async function closeOfferUnsold(
  context: Pick<CommandContext, 'now' | 'config'>,
  tx: Db,
  actor: AuditActor,
  card: {
    id: string;
    userId: string;
    cardType: string;
    cardValue: string;
    status: string;
    rejectionReason: string | null;
    rejectionNote: string | null;
  },
  outcome: 'declined' | 'expired',
) {
  const now = new Date(context.now());
  const note = outcome === 'declined' ? 'offer declined' : 'offer expired';
  await tx
    .update(transactions)
    .set({
      offerStatus: outcome,
      offerDecidedAt: now,
      status: 'rejected',
      rejectionReason: 'balance_differs',
      rejectionNote: note,
      rejectedAt: now,
      paymentAmount: null,
      updatedAt: sql`now()`,
    })
    .where(eq(transactions.id, card.id));
  await auditCard(tx, actor, card.id, outcome === 'declined' ? 'offer_declined' : 'offer_expired', {
    offerStatus: { from: 'pending', to: outcome },
    status: { from: card.status, to: 'rejected' },
    rejectionReason: { from: card.rejectionReason, to: 'balance_differs' },
    rejectionNote: { from: card.rejectionNote, to: note },
  });
  // The customer who declined knows it; an expiry is news.
  if (outcome === 'expired') {
    await notify(context, tx, card.userId, {
      kind: 'transaction',
      title: clip(`${card.cardType} card of ${formatMoney(card.cardValue)}: Offer expired`),
      body: 'The revised offer was not answered in time, so the card was rejected (Balance differs). You can appeal within 14 days.',
      link: `/history?card=${card.id}`,
    });
  }
}

const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text);

/** The customer's notice of a revised offer: what, for what balance, why, and until when. */
export function offerNotice(
  card: { id: string; cardType: string; cardValue: string },
  offer: { amount: string; verifiedValue: string; note: string; expiresAt: Date },
): Notice {
  return {
    kind: 'transaction',
    title: clip(`${card.cardType} card of ${formatMoney(card.cardValue)}: Revised offer`),
    body: `Revised offer: ${formatMoney(offer.amount)} for a ${formatMoney(offer.verifiedValue)} balance. ${offer.note.replace(/[.!?]?$/, '.')} Accept or decline by ${offer.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC; unanswered, the card is rejected.`,
    link: `/history?card=${card.id}`,
  };
}
