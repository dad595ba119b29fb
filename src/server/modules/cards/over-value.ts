import type { AuditEntry, OverValue } from '../../../shared/admin';
import type { Offer } from '../../../shared/fair-dealing';
import { formatMoney, toCents } from '../../../shared/money';
import { can, FORBIDDEN_ROLE } from '../../../shared/staff-roles';
import type { Account } from '../../common/account';
import type { AuditChanges } from '../../common/audit';
import { HttpError } from '../../common/http-error';

/**
 * What a card is due: its value × its rate, its quote (`expectedPayout`), or once the customer
 * accepted a revised offer, that offer's amount. Never paid less (decision 073), nor more but by
 * an owner with a reason that is audited and shown on the card (decision 106).
 */
export const amountDueOf = (card: {
  expectedPayout: string;
  offerStatus: string | null;
  offerAmount: string | null;
}) =>
  card.offerStatus === 'accepted' && card.offerAmount ? card.offerAmount : card.expectedPayout;

const OVER_VALUE_BY_OWNER = 'Only an owner can pay more than a card’s value, with a reason.';

/**
 * Checks an amount staff set (a payment, an offer) against the card's ceiling: above it, 400
 * `over_value` on `field`, unless an owner gives a reason (anyone else giving one is 403). Answers
 * what the audit row adds for an amount over the ceiling: the reason.
 */
export function checkCeiling(
  actor: Account | null,
  amount: { value: string; ceiling: string; accepted: boolean },
  reason: string | undefined,
  refusal: { field: string; what: string; most: string },
): AuditChanges {
  if (toCents(amount.value) <= toCents(amount.ceiling)) return {};
  if (!reason) {
    const basis = amount.accepted ? 'the offer the customer accepted' : 'its value × its rate';
    throw new HttpError(
      400,
      `The ${refusal.what} is above what this card pays (${formatMoney(amount.ceiling)}: ${basis}). Only an owner can pay more, with a reason.`,
      { [refusal.field]: `At most ${refusal.most}` },
      { code: 'over_value' },
    );
  }
  if (!can(actor?.staffRole, 'cards.overpay')) {
    throw new HttpError(403, OVER_VALUE_BY_OWNER, undefined, { code: FORBIDDEN_ROLE });
  }
  return { overValueReason: { from: null, to: reason } };
}

/**
 * What staff see of a card that pays over its ceiling: the payment amount above it, or a revised
 * offer (waiting or accepted) above the quote, with the latest reason of the card's history (newest
 * first); null when the card pays no more than it should.
 */
export function overValueOf(
  card: {
    paymentAmount: string | null;
    expectedPayout: string;
    offer: Pick<Offer, 'amount' | 'status'> | null;
  },
  history: AuditEntry[],
): OverValue | null {
  const offered =
    card.offer && (card.offer.status === 'pending' || card.offer.status === 'accepted')
      ? card.offer
      : null;
  const ceiling = amountDueOf({
    expectedPayout: card.expectedPayout,
    offerStatus: offered?.status ?? null,
    offerAmount: offered?.amount ?? null,
  });
  const over =
    card.paymentAmount && toCents(card.paymentAmount) > toCents(ceiling)
      ? { amount: card.paymentAmount, ceiling }
      : offered && toCents(offered.amount) > toCents(card.expectedPayout)
        ? { amount: offered.amount, ceiling: card.expectedPayout }
        : null;
  if (!over) return null;
  const given = history.find((entry) => entry.changes.overValueReason);
  return {
    ...over,
    reason: (given?.changes.overValueReason?.to as string | undefined) ?? null,
    by: given?.actorEmail ?? null,
    at: given?.createdAt ?? null,
  };
}
