import { asc, getTableColumns, inArray, sql } from 'drizzle-orm';
import { fromCents, toCents } from '../../../shared/money';
import { isPayable, type MarkSentBatch, type MarkSentResult, sumOf } from '../../../shared/payouts';
import { paymentStatusLabel, statusLabel } from '../../../shared/statuses';
import type { Account } from '../../common/account';
import type { AuditActor, AuditChanges } from '../../common/audit';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError } from '../../common/http-error';
import { notify, transactionNotice } from '../../common/notify';
import type { Db } from '../../db/client';
import { transactions } from '../../db/schema';
import { lockSeller, owedForCard, type ToSend, toSendFor } from '../ledger';
import { CARD_TOPICS, type Card, changeCard } from './change';
import { holdRulesOf, payoutBlocks } from './payout-holds';

const SKIP_MESSAGES = {
  not_found: 'No such transaction',
  amount_changed: 'The amount to pay changed since the list was loaded',
} as const;

/**
 * Why a card may not be paid now, whoever marks it paid (mark-sent, or staff's edit): it is not
 * approved and waiting for its payment (409 `not_payable`), or `blocks` (payoutBlocks) holds it
 * (409 `payout_hold` or `account_suspended`). Null when it may be paid.
 */
export function refusalToPay(
  card: { id: string; status: string; paymentStatus: string; offerStatus: string | null },
  blocks: Map<string, HttpError>,
): HttpError | null {
  if (!isPayable(card)) {
    return new HttpError(
      409,
      `Not waiting for payment: ${statusLabel(card.status)}, ${paymentStatusLabel(card.paymentStatus)}`,
      undefined,
      { code: 'not_payable' },
    );
  }
  return blocks.get(card.id) ?? null;
}

/**
 * Marks a batch paid (decision 052), inside the caller's transaction (payouts' mark-sent): each
 * card still waiting, and still owed the amount the list showed, becomes Payment Sent and
 * Completed with the amount paid recorded, with an audit row and a notification to its customer.
 * Every other card is left untouched and reported back with the reason.
 */
export async function markPayoutsSent(
  context: CommandContext,
  tx: Db,
  actor: Account,
  { items, payoutReference }: MarkSentBatch,
): Promise<Outcome<MarkSentResult>> {
  // Locked in id order, so two batches that share cards cannot deadlock.
  const rows = await tx
    .select({ ...getTableColumns(transactions), owed: owedForCard() })
    .from(transactions)
    .where(
      inArray(
        transactions.id,
        items.map((i) => i.id),
      ),
    )
    .orderBy(asc(transactions.id))
    .for('update');
  const byId = new Map(rows.map((r) => [r.id, r]));
  const blocks = await payoutBlocks(
    tx,
    rows.map((r) => r.id),
    holdRulesOf(context),
  );
  // What to send for each card, by the rule the list showed it with (netting, issue 39).
  // Each seller locked (in id order) before it is worked out, so what they owe back cannot
  // change before the payment posts it.
  const toSend = new Map<string, ToSend>();
  for (const userId of [...new Set(rows.map((r) => r.userId))].sort()) {
    await lockSeller(tx, userId);
    for (const [id, share] of await toSendFor(tx, userId)) toSend.set(id, share);
  }
  const result: MarkSentResult = { sent: [], total: '0.00', skipped: [] };
  const customers = new Set<string>();
  for (const item of items) {
    const card = byId.get(item.id);
    if (!card) {
      result.skipped.push({ id: item.id, reason: 'not_found', message: SKIP_MESSAGES.not_found });
      continue;
    }
    const refusal = refusalToPay(card, blocks);
    if (refusal) {
      const reason = refusal.extra!.code as 'not_payable' | 'payout_hold' | 'account_suspended';
      result.skipped.push({ id: item.id, reason, message: refusal.message });
      continue;
    }
    const net = toSend.get(card.id)?.net ?? card.owed;
    if (net !== toCents(item.amount)) {
      result.skipped.push({
        id: item.id,
        reason: 'amount_changed',
        message: SKIP_MESSAGES.amount_changed,
      });
      continue;
    }
    // The card pays what it is owed; the netted part of it settles what its seller owed back.
    // The batch's reference, when given, replaces any the card had; none given keeps it.
    await recordCardSent(
      context,
      tx,
      actor,
      card,
      fromCents(card.owed),
      payoutReference || undefined,
      'payout_sent',
    );
    customers.add(card.userId);
    result.sent.push({ id: card.id, amount: fromCents(net) });
  }
  result.total = sumOf(result.sent);
  const changed = customers.size > 0 ? [change([...customers, STAFF], CARD_TOPICS)] : [];
  return { value: result, changed };
}

/**
 * A payment sent that a statement shows arrived (reconciliation, issue 39): Payment Confirmed,
 * the spec's status, through the card's one write as a staff edit would set it, with an audit row
 * naming the statement and the customer told. Inside the caller's transaction, the card locked.
 */
export async function confirmPaymentSeen(
  context: CommandContext,
  tx: Db,
  actor: Account,
  card: Card,
  statementId: string,
) {
  const changes: AuditChanges = {
    paymentStatus: { from: card.paymentStatus, to: 'confirmed' },
    statement: { from: null, to: statementId },
  };
  await changeCard(context, tx, actor, card, { paymentStatus: 'confirmed' }, 'update', changes);
  const notice = transactionNotice(card, { paymentStatus: changes.paymentStatus! });
  if (notice) await notify(context, tx, card.userId, notice);
}

/**
 * A card's payment recorded as sent at `amount`: Completed, Payment Sent, paid now, with the
 * reference when one is given (undefined keeps the card's), audited under `action`; its seller's
 * notice names the amount paid even when staff had set it before. Staff's mark-sent and a payout
 * submitted on a rail (payout-rail.ts) both record it here.
 */
export async function recordCardSent(
  context: CommandContext,
  tx: Db,
  actor: AuditActor,
  card: Card,
  amount: string,
  reference: string | null | undefined,
  action: string,
): Promise<Card> {
  const changes: AuditChanges = {};
  if (card.status !== 'completed') changes.status = { from: card.status, to: 'completed' };
  changes.paymentStatus = { from: card.paymentStatus, to: 'sent' };
  if (card.paymentAmount !== amount)
    changes.paymentAmount = { from: card.paymentAmount, to: amount };
  if (reference !== undefined && card.payoutReference !== reference) {
    changes.payoutReference = { from: card.payoutReference, to: reference };
  }
  const after = await changeCard(
    context,
    tx,
    actor,
    card,
    {
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: amount,
      ...(reference !== undefined ? { payoutReference: reference } : {}),
      paidAt: sql`now()`,
    },
    action,
    changes,
  );
  const notice = transactionNotice(card, {
    ...changes,
    paymentAmount: { from: card.paymentAmount, to: amount },
  });
  if (notice) await notify(context, tx, card.userId, notice);
  return after;
}
