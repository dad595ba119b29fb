import { sql } from 'drizzle-orm';
import type { Feedback } from '../../shared/feedback';
import { rejectionReasonLabel } from '../../shared/rejections';
import { feedback, paymentMethods, users } from '../db/schema';

/**
 * Pieces of a transaction's answer that the customer's cards, the staff queue and payouts all
 * select: kept here, beneath those modules, so none of them imports another.
 */

/**
 * Who a card belongs to and where to pay them (spec section 3), for a query that joins `users`
 * and left-joins `payment_methods` (the staff queue, payouts).
 */
export const payeeColumns = {
  userEmail: users.email,
  userFirstName: users.firstName,
  userLastName: users.lastName,
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

type FeedbackRow = {
  feedbackRating: number | null;
  feedbackComment: string | null;
  feedbackCreatedAt: Date | null;
};
type RejectionRow = { rejectionReason: string | null; rejectionNote: string | null };

/**
 * The fields a transaction answer adds to its row: the rejection's label, and the rating as one
 * object (the flat columns it came in are dropped).
 */
export function answerFields<T extends FeedbackRow & RejectionRow>(row: T) {
  const { feedbackRating, feedbackComment, feedbackCreatedAt, ...rest } = row;
  const rating: Feedback | null =
    feedbackRating === null || feedbackCreatedAt === null
      ? null
      : {
          rating: feedbackRating,
          comment: feedbackComment,
          createdAt: feedbackCreatedAt.toISOString(),
        };
  return {
    ...rest,
    rejectionReasonLabel: row.rejectionReason ? rejectionReasonLabel(row.rejectionReason) : null,
    feedback: rating,
  };
}
