import {
  CLAWBACK_REASON_LABELS,
  type Clawback,
  type ClawbackReason,
  type CreateClawbackInput,
} from '../../../shared/ledger';
import { formatMoney, fromCents, toCents } from '../../../shared/money';
import type { PartnerClawback } from '../../../shared/partner-api';
import type { Account } from '../../common/account';
import { auditCard } from '../../common/audit';
import { type CommandContext, change, type Outcome, STAFF } from '../../common/command';
import { HttpError } from '../../common/http-error';
import { notify } from '../../common/notify';
import {
  impliedByCard,
  lockSeller,
  recordClawback,
  takenBackFrom,
  writeOffClawback,
} from '../ledger';
import { queueWebhookEvent } from '../webhooks';
import { suspendOnFraudRejections } from './account-standing';
import { CARD_TOPICS, lockCard } from './change';
import { partnerCard } from './partner';

export const NOT_PAID =
  'Money can only be taken back from a card whose payment was sent or confirmed';

/** What the seller reads as the reason: the reason's label, or staff's words for Other. */
const reasonText = (reason: ClawbackReason, note: string | null | undefined) =>
  reason === 'other' && note ? note : CLAWBACK_REASON_LABELS[reason];

/**
 * Finance or an owner take money back from a seller for a paid card (issue 39): found redeemed,
 * a balance that differs, a chargeback. Up to what the card paid, less what was already taken
 * back from it; the card is locked, so clawbacks sent at once cannot take more than it paid. The
 * seller then owes it back, it is netted against their next payouts (decision 093), and they are
 * told why, in the app and by email. It counts towards the automatic suspension as a fraud
 * rejection does (decision 072).
 */
export async function takeBack(
  context: CommandContext,
  actor: Account,
  id: string,
  input: CreateClawbackInput,
): Promise<Outcome<Clawback>> {
  return context.db.transaction(async (tx) => {
    const card = await lockCard(tx, id);
    // What the seller owes back changes: no payout of theirs works out its netting meanwhile.
    await lockSeller(tx, card.userId);
    const { paid } = impliedByCard(card);
    if (paid === 0) throw new HttpError(409, NOT_PAID, undefined, { code: 'not_paid' });
    const left = paid - (await takenBackFrom(tx, id));
    const amount = toCents(input.amount);
    if (amount > left) {
      const most = formatMoney(fromCents(left));
      throw new HttpError(
        400,
        left === 0
          ? 'Everything this card paid was already taken back'
          : `At most ${most} is left to take back from this card`,
        { amount: `At most ${most}` },
        { code: 'over_paid' },
      );
    }
    const why = reasonText(input.reason, input.note);
    const cardName = `${card.cardType} card of ${formatMoney(card.cardValue)}`;
    const clawback = await recordClawback(tx, new Date(context.now()), actor, card, {
      amount,
      reason: input.reason,
      note: input.note ?? null,
      memo: `Taken back: ${why.charAt(0).toLowerCase()}${why.slice(1)} (card ${card.cardType} ${formatMoney(card.cardValue)})`,
    });
    await auditCard(tx, actor, id, 'clawback', {
      clawback: {
        from: null,
        to: { amount: clawback.amount, reason: input.reason, note: input.note ?? null },
      },
    });
    // The seller's webhooks hear of it from the outbox, in this transaction (decision 147).
    await queueWebhookEvent(
      tx,
      card.userId,
      'clawback.created',
      async (): Promise<PartnerClawback> => ({
        id: clawback.id,
        cardId: id,
        amount: clawback.amount,
        outstanding: clawback.outstanding,
        reason: clawback.reason,
        note: clawback.note,
        createdAt: clawback.createdAt,
        card: await partnerCard(tx, card.userId, id),
      }),
      context.now(),
    );
    await notify(context, tx, card.userId, {
      kind: 'transaction',
      title: `${cardName}: ${formatMoney(clawback.amount)} taken back`.slice(0, 200),
      body: `${why}.${input.note && input.reason !== 'other' ? ` ${input.note}` : ''} We paid ${formatMoney(fromCents(paid))} for this card and take back ${formatMoney(clawback.amount)}: it is set against your next payouts. You can appeal within 14 days from the card in History.`,
      link: `/history?card=${id}`,
    });
    const suspended = await suspendOnFraudRejections(context, tx, actor, card.userId, 'clawback');
    return { value: clawback, changed: [change([card.userId, STAFF], CARD_TOPICS), ...suspended] };
  });
}

/** Finance write off what is still owed back on a clawback (to losses), with a reason; audited. */
export async function writeOff(
  context: CommandContext,
  actor: Account,
  id: string,
  note: string,
): Promise<Outcome<Clawback>> {
  return context.db.transaction(async (tx) => {
    const done = await writeOffClawback(tx, new Date(context.now()), actor, id, note);
    await auditCard(tx, actor, done.transactionId, 'write_off', {
      writtenOff: { from: null, to: { clawbackId: id, amount: fromCents(done.amount), note } },
    });
    return {
      value: done.clawback,
      changed: [change([done.userId, STAFF], ['transactions', 'stats', 'admin-stats'])],
    };
  });
}
