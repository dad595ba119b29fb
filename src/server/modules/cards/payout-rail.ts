import { asc, getTableColumns, inArray } from 'drizzle-orm';
import { formatMoney, fromCents } from '../../../shared/money';
import { isPayable } from '../../../shared/payouts';
import type { AuditActor, AuditChanges } from '../../common/audit';
import { auditCard } from '../../common/audit';
import type { CommandContext } from '../../common/command';
import { notify, transactionNotice } from '../../common/notify';
import type { Db } from '../../db/client';
import { transactions } from '../../db/schema';
import { owedForCard } from '../ledger';
import { type Card, changeCard } from './change';
import { recordCardSent } from './payment';

/**
 * The card follows its payout on the automatic rails (issue 40, decision 120): queued (an audit
 * row, for the timeline), submitted sets Payment Sent, confirmed sets Payment Confirmed, failed
 * sets it back to Payment Pending with the reason. Each runs inside the payout's transaction,
 * the cards locked in id order (as mark-sent locks them, so the two never deadlock), and goes
 * through changeCard, which posts the card's money (netting included) as a staff edit would.
 */

/** The cards, locked in id order, each with what the books still owe for it (cents). */
export async function lockCardsForPayout(tx: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return tx
    .select({ ...getTableColumns(transactions), owed: owedForCard() })
    .from(transactions)
    .where(inArray(transactions.id, ids))
    .orderBy(asc(transactions.id))
    .for('update');
}

/** A payout was queued for these cards: a step of each card's timeline. */
export async function recordPayoutQueued(
  tx: Db,
  actor: AuditActor,
  ids: string[],
  payout: { id: string; rail: string },
) {
  for (const id of ids) {
    await auditCard(tx, actor, id, 'payout_queued', {
      payout: { from: null, to: payout.id },
      rail: { from: null, to: payout.rail },
    });
  }
}

/**
 * The payout left through its rail: each card still waiting for payment becomes Payment Sent
 * (and Completed) at what it is owed, with the rail's reference. Answers the cards sent; a card
 * no longer payable (staff paid or changed it meanwhile) is left out.
 */
export async function markCardsSubmitted(
  context: CommandContext,
  tx: Db,
  actor: AuditActor,
  ids: string[],
  reference: string | null,
): Promise<Card[]> {
  const sent: Card[] = [];
  for (const { owed, ...card } of await lockCardsForPayout(tx, ids)) {
    if (!isPayable(card) || owed <= 0) continue;
    sent.push(
      await recordCardSent(
        context,
        tx,
        actor,
        card,
        fromCents(owed),
        reference,
        'payout_submitted',
      ),
    );
  }
  return sent;
}

/** The payout arrived (a block confirmed on chain, a settled ACH batch): Payment Confirmed. */
export async function markCardsConfirmed(
  context: CommandContext,
  tx: Db,
  actor: AuditActor,
  ids: string[],
) {
  for (const { owed: _owed, ...card } of await lockCardsForPayout(tx, ids)) {
    if (card.paymentStatus !== 'sent') continue;
    const changes: AuditChanges = { paymentStatus: { from: 'sent', to: 'confirmed' } };
    await changeCard(
      context,
      tx,
      actor,
      card,
      { paymentStatus: 'confirmed' },
      'payout_confirmed',
      changes,
    );
    const notice = transactionNotice(card, changes);
    if (notice) await notify(context, tx, card.userId, notice);
  }
}

/**
 * The payout failed (reverted, dropped, returned by the bank): each card it had sent is Payment
 * Pending again, what it was paid taken back in the books (changeCard posts the reversal), and
 * the seller is told why and asked to check their payment method.
 */
export async function markCardsFailed(
  context: CommandContext,
  tx: Db,
  actor: AuditActor,
  ids: string[],
  reason: string,
) {
  for (const { owed: _owed, ...card } of await lockCardsForPayout(tx, ids)) {
    const wasSent = card.paymentStatus === 'sent' || card.paymentStatus === 'confirmed';
    const changes: AuditChanges = { payoutError: { from: null, to: reason } };
    if (wasSent) {
      changes.paymentStatus = { from: card.paymentStatus, to: 'pending' };
      if (card.payoutReference !== null) {
        changes.payoutReference = { from: card.payoutReference, to: null };
      }
    }
    await changeCard(
      context,
      tx,
      actor,
      card,
      wasSent ? { paymentStatus: 'pending', payoutReference: null, paidAt: null } : {},
      'payout_failed',
      changes,
    );
    await notify(context, tx, card.userId, {
      kind: 'transaction',
      title: `${card.cardType} card of ${formatMoney(card.cardValue)}: payout failed`,
      body: `Your payout failed: ${reason}. Please check your payment method; we will pay the card again once it is right.`,
      link: '/payment-methods',
    });
  }
}
