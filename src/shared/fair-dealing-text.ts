import type { ReviewTimes, TimelineStep } from './fair-dealing';
import { formatMoney } from './money';

/**
 * The words the customer's pages show about offers, review times and a card's timeline: no zod,
 * so the dashboard's first paint does not load the schema library (issue 24, item 9).
 */

/** The customer's words for an offer: "Revised offer: $36.40 for a $40.00 balance". */
export const offerHeadline = (offer: { amount: string; verifiedValue: string }) =>
  `Revised offer: ${formatMoney(offer.amount)} for a ${formatMoney(offer.verifiedValue)} balance`;

/** Minutes as people say them: "45 minutes", "2 hours", "1 hour 30 minutes", "3 days". */
export function durationText(minutes: number): string {
  const m = Math.max(1, Math.round(minutes));
  if (m < 60) return `${m} minute${m === 1 ? '' : 's'}`;
  if (m < 48 * 60) {
    const hours = Math.floor(m / 60);
    const rest = m % 60;
    const h = `${hours} hour${hours === 1 ? '' : 's'}`;
    return rest === 0 ? h : `${h} ${rest} minute${rest === 1 ? '' : 's'}`;
  }
  const days = Math.round(m / (24 * 60));
  return `${days} days`;
}

/**
 * The line the upload form and a card's detail show: the brand's median when it has enough
 * decisions, else the overall one, else (no decisions in the window) the staff's target.
 */
export function reviewTimeText(times: ReviewTimes, cardType?: string): string {
  const brand = cardType ? times.brands[cardType] : undefined;
  const median = brand?.medianMinutes ?? times.overall.medianMinutes;
  if (median === null) {
    return `We aim to review every card within ${durationText(times.targetMinutes)}`;
  }
  return `Usually reviewed within ${durationText(median)}`;
}

/**
 * The quote's time to payment (decision 150): "Usually paid within 25 minutes", the brand's median
 * when it has enough paid cards in the last 7 days, else the overall one; null when none was paid.
 */
export function paymentTimeText(times: ReviewTimes, cardType?: string): string | null {
  const brand = cardType ? times.payment.brands[cardType] : undefined;
  const median = brand?.medianMinutes ?? times.payment.overall.medianMinutes;
  return median === null ? null : `Usually paid within ${durationText(median)}`;
}

export const TIMELINE_LABELS: Record<TimelineStep, string> = {
  submitted: 'Submitted',
  in_review: 'In review',
  offer_made: 'Revised offer made',
  offer_accepted: 'Offer accepted',
  offer_declined: 'Offer declined',
  offer_expired: 'Offer expired',
  approved: 'Approved',
  payout_queued: 'Payout queued',
  payment_sent: 'Payment sent',
  payment_confirmed: 'Payment confirmed',
  payout_failed: 'Payout failed',
  rejected: 'Rejected',
  appealed: 'Appealed',
  appeal_decided: 'Appeal decided',
  withdrawn: 'Withdrawn by you',
};
