import { and, eq, inArray, sql } from 'drizzle-orm';
import type { CardPayout, DisbursementStatus } from '../../../shared/disbursements';
import type { Appeal, AppealStatus, Offer, OfferStatus } from '../../../shared/fair-dealing';
import type { Feedback } from '../../../shared/feedback';
import { PAYABLE_STATUSES } from '../../../shared/payouts';
import { rejectionReasonLabel } from '../../../shared/rejections';
import { PAID_PAYMENT_STATUSES } from '../../../shared/statuses';
import { customerColumns } from '../../common/accounts';
import { feedback, paymentMethods, transactions } from '../../db/schema';

/**
 * Pieces of a card's answer and of its money that the customer's cards, the staff queue, payouts,
 * the digest and privacy all select.
 */

/** A card whose payment was sent or confirmed: money paid (the dashboard's earned, the digest). */
export const PAID = inArray(transactions.paymentStatus, [...PAID_PAYMENT_STATUSES]);

/** An approved card not paid yet, unless a revised offer waits for its answer (decision 073). */
export const AWAITING_PAYMENT = and(
  inArray(transactions.status, [...PAYABLE_STATUSES]),
  eq(transactions.paymentStatus, 'pending'),
  sql`${transactions.offerStatus} is distinct from 'pending'`,
);

/** What an approved card not paid yet will be paid: staff's amount, else the quote. */
export const PAYOUT_DUE = sql`coalesce(${transactions.paymentAmount}, ${transactions.expectedPayout})`;
/** PAYOUT_DUE as the decimal text an answer carries. */
export const PAYOUT_DUE_TEXT = sql<string>`${PAYOUT_DUE}::text`;

/**
 * Who a card belongs to and where to pay them (spec section 3), for a query that joins `users`
 * and left-joins `payment_methods` (the staff queue, payouts).
 */
export const payeeColumns = {
  ...customerColumns,
  paymentMethodType: paymentMethods.type,
  paymentMethodAccountName: paymentMethods.accountName,
  paymentMethodIdentifier: paymentMethods.identifier,
  paymentMethodAccountNumber: paymentMethods.accountNumber,
  paymentMethodBankName: paymentMethods.bankName,
  paymentMethodRoutingNumber: paymentMethods.routingNumber,
};

/** The card's rating (one at most: a unique index), for a left join on `feedback`. */
export function feedbackColumns() {
  // Aliased: inside a subquery (the recent list's lateral join) `created_at` would be ambiguous.
  return {
    feedbackRating: sql<number | null>`${feedback.rating}`.as('feedback_rating'),
    feedbackComment: sql<string | null>`${feedback.comment}`.as('feedback_comment'),
    feedbackCreatedAt: sql<Date | null>`${feedback.createdAt}`
      .mapWith(feedback.createdAt)
      .as('feedback_created_at'),
  };
}

/**
 * The revised offer and the appeal (decision 073), for a query on `transactions`: answerFields
 * makes each one object, or null.
 */
export const fairDealingColumns = {
  rejectedAt: transactions.rejectedAt,
  offerVerifiedValue: transactions.offerVerifiedValue,
  offerAmount: transactions.offerAmount,
  offerNote: transactions.offerNote,
  offerStatus: transactions.offerStatus,
  offerCreatedAt: transactions.offerCreatedAt,
  offerExpiresAt: transactions.offerExpiresAt,
  offerDecidedAt: transactions.offerDecidedAt,
  appealStatus: transactions.appealStatus,
  appealMessage: transactions.appealMessage,
  appealImageUrls: transactions.appealImageUrls,
  appealCreatedAt: transactions.appealCreatedAt,
  appealDecidedAt: transactions.appealDecidedAt,
  appealNote: transactions.appealNote,
};

/**
 * A moment as a row carries it: a Date, or the ISO text the database made of it (the customer's
 * polled answers select `isoText`, so that no Date is made per cell: issue 45).
 */
export type Moment = Date | string;

type FairDealingRow = {
  rejectedAt: Moment | null;
  offerVerifiedValue: string | null;
  offerAmount: string | null;
  offerNote: string | null;
  offerStatus: string | null;
  offerCreatedAt: Moment | null;
  offerExpiresAt: Moment | null;
  offerDecidedAt: Moment | null;
  appealStatus: string | null;
  appealMessage: string | null;
  appealImageUrls: string[] | null;
  appealCreatedAt: Moment | null;
  appealDecidedAt: Moment | null;
  appealNote: string | null;
};

/** A moment as an answer's ISO text (toISOString's form, which isoText's SQL also makes). */
export const isoOf = (moment: Moment) =>
  typeof moment === 'string' ? moment : moment.toISOString();
const iso = (moment: Moment | null) => (moment === null ? null : isoOf(moment));

/** The offer and the appeal of a row as their objects (null when there is none). */
export function fairDealingFields(row: FairDealingRow): {
  rejectedAt: string | null;
  offer: Offer | null;
  appeal: Appeal | null;
} {
  return {
    rejectedAt: iso(row.rejectedAt),
    offer:
      row.offerStatus && row.offerAmount && row.offerVerifiedValue && row.offerCreatedAt
        ? {
            verifiedValue: row.offerVerifiedValue,
            amount: row.offerAmount,
            status: row.offerStatus as OfferStatus,
            expiresAt: iso(row.offerExpiresAt)!,
            note: row.offerNote,
            createdAt: isoOf(row.offerCreatedAt),
            decidedAt: iso(row.offerDecidedAt),
          }
        : null,
    appeal:
      row.appealStatus && row.appealCreatedAt
        ? {
            status: row.appealStatus as AppealStatus,
            message: row.appealMessage ?? '',
            imageUrls: row.appealImageUrls ?? [],
            createdAt: isoOf(row.appealCreatedAt),
            decidedAt: iso(row.appealDecidedAt),
            note: row.appealNote,
          }
        : null,
  };
}

type FeedbackRow = {
  feedbackRating: number | null;
  feedbackComment: string | null;
  feedbackCreatedAt: Moment | null;
};
type RejectionRow = { rejectionReason: string | null; rejectionNote: string | null };

/** The card's rating as one object, from the flat columns it came in; null when none. */
export const feedbackOf = (row: FeedbackRow): Feedback | null =>
  row.feedbackRating === null || row.feedbackCreatedAt === null
    ? null
    : {
        rating: row.feedbackRating,
        comment: row.feedbackComment,
        createdAt: isoOf(row.feedbackCreatedAt),
      };

/** The label of a rejection's reason, or null. */
export const rejectionLabelOf = (row: RejectionRow) =>
  row.rejectionReason ? rejectionReasonLabel(row.rejectionReason) : null;

/**
 * The fields a transaction answer adds to its row: the rejection's label, and the rating as one
 * object (the flat columns it came in are dropped).
 */
export function answerFields<T extends FeedbackRow & RejectionRow & FairDealingRow>(row: T) {
  const {
    feedbackRating: _feedbackRating,
    feedbackComment: _feedbackComment,
    feedbackCreatedAt: _feedbackCreatedAt,
    rejectedAt: _rejectedAt,
    offerVerifiedValue: _offerVerifiedValue,
    offerAmount: _offerAmount,
    offerNote: _offerNote,
    offerStatus: _offerStatus,
    offerCreatedAt: _offerCreatedAt,
    offerExpiresAt: _offerExpiresAt,
    offerDecidedAt: _offerDecidedAt,
    appealStatus: _appealStatus,
    appealMessage: _appealMessage,
    appealImageUrls: _appealImageUrls,
    appealCreatedAt: _appealCreatedAt,
    appealDecidedAt: _appealDecidedAt,
    appealNote: _appealNote,
    ...rest
  } = row;
  return {
    ...rest,
    rejectionReasonLabel: rejectionLabelOf(row),
    feedback: feedbackOf(row),
    ...fairDealingFields(row),
  };
}

/**
 * The card's latest payout on an automatic rail (issue 40), as one text column: status, rail,
 * link, a failed payout's reason and reference, separated by tabs (a reference is typed by no one on these rails, and a tab
 * in it would only shorten it). One index lookup per card (disbursement_cards by card).
 */
export const payoutColumn = () =>
  sql<
    string | null
  >`(select d.status || chr(9) || d.rail || chr(9) || coalesce(d.reference_url, '') || chr(9) || (case when d.status = 'failed' then coalesce(replace(d.last_error, chr(9), ' '), '') else '' end) || chr(9) || coalesce(d.reference, '')
    from disbursement_cards dc join disbursements d on d.id = dc.disbursement_id
   where dc.transaction_id = ${transactions.id} and d.rail <> 'manual'
   order by d.created_at desc limit 1)`.as('payout_text');

/** The payout column read back as the card's `payout`. */
export function payoutOf(text: string | null | undefined): CardPayout {
  if (!text) return null;
  const [status, rail, url, reason, ...reference] = text.split('\t');
  const ref = reference.join('\t') || null;
  return {
    status: status as DisbursementStatus,
    rail: rail!,
    reference: ref,
    // A link only beside its reference (a retried payout's old hash is not shown).
    url: (ref && url) || null,
    // Why a failed payout failed, in words; absent otherwise.
    ...(status === 'failed' ? { reason: reason || null } : {}),
  };
}
