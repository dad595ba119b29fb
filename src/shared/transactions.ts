import { z } from 'zod';
import { cardPayoutSchema } from './disbursements';
import { appealSchema, offerSchema } from './fair-dealing';
import { feedbackSchema } from './feedback';
import { rateTierSchema } from './rate-schemas';

/** A customer's transaction as the API answers it (spec section 7 plus PRODUCT.md). */
export const transactionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  cardType: z.string(),
  cardValue: z.string(),
  cardCondition: z.string(),
  cardFormat: z.string(),
  imageUrls: z.array(z.string()),
  notes: z.string().nullable(),
  /**
   * The last 4 characters of the card's code (decision 082): '' for a code shorter than 8, null
   * when none was given. The code itself is only ever sent to staff who review.
   */
  cardCodeLast4: z.string().nullable(),
  status: z.string(),
  paymentStatus: z.string(),
  paymentAmount: z.string().nullable(),
  adminNotes: z.string().nullable(),
  // No validationStatus: the automated checks' verdict is for staff, not for the customer checked.
  payoutRate: z.string(),
  expectedPayout: z.string(),
  /** The rate tier the card was quoted at (decision 130), or null when the brand rate applied. */
  rateTier: rateTierSchema.nullable(),
  /** 'auto' when the card was approved at once by the instant-decision rules (decision 131). */
  decidedBy: z.string().nullable(),
  /**
   * A pending card's place in the queue (oldest first, as staff work) and when to expect a
   * decision, from staff's throughput of the last 24 hours; null once decided (issue 41).
   */
  queue: z.object({ position: z.number(), expectedDecisionAt: z.string() }).nullable(),
  paymentMethodId: z.string().nullable(),
  paymentMethodType: z.string().nullable(),
  paymentMethodAccountName: z.string().nullable(),
  /** Why staff rejected the card (REJECTION_REASONS), its label, and the note for `other`. */
  rejectionReason: z.string().nullable(),
  rejectionReasonLabel: z.string().nullable(),
  rejectionNote: z.string().nullable(),
  /** When payment was sent (decision 060); null until the card is paid. */
  paidAt: z.string().nullable(),
  /** The transfer id staff recorded when they paid, if any. */
  payoutReference: z.string().nullable(),
  /** The customer's rating of the card, once it is completed; null until they give one. */
  feedback: feedbackSchema.nullable(),
  /** When the card was rejected (an appeal is open for 14 days from it); null otherwise. */
  rejectedAt: z.string().nullable(),
  /** The revised offer staff made when the balance differed (decision 073), or null. */
  offer: offerSchema.nullable(),
  /** The customer's appeal of the rejection and its decision, or null. */
  appeal: appealSchema.nullable(),
  /**
   * When the card's payout may be sent, while a payout hold keeps it waiting (decision 072): a
   * new payment method's or a new account's. Null when nothing holds it (or it is paid, rejected
   * or withdrawn).
   */
  payoutHoldUntil: z.string().nullable(),
  /** Why it waits: `new_method` or `new_account`; null with payoutHoldUntil. */
  payoutHoldReason: z.enum(['new_method', 'new_account']).nullable(),
  /** The card's latest payout on a rail (issue 40): queued, sent, confirmed or failed; or null. */
  payout: cardPayoutSchema,
});
export type Transaction = z.infer<typeof transactionSchema>;

export const statsSchema = z.object({
  totalSubmitted: z.number(),
  pending: z.number(),
  completed: z.number(),
  /** Payment sent or confirmed: the sum of paymentAmount (decision 060). */
  totalEarned: z.string(),
  /** Approved cards not paid yet: the sum of what each will be paid (decision 060). */
  awaitingPayment: z.string(),
});
export type Stats = z.infer<typeof statsSchema>;

export const RECENT_TRANSACTIONS_LIMIT = 5;

// --- Withdrawing a card (issue 43 item 19, decision 135) ---

/** The status of a card its seller took back before review: final, no payout. */
export const WITHDRAWN = 'withdrawn';
export const NOT_WITHDRAWABLE =
  'This card can no longer be withdrawn: only a card waiting for review, and not yet opened by a reviewer, can be';
export const WITHDRAWN_BY_SELLER = 'The seller withdrew this card: it can no longer be changed';
export const WITHDRAW_CONFIRM =
  'Withdraw this card? It leaves the review queue for good, nothing is paid for it, and its value no longer counts against your selling limits.';
