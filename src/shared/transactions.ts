import { z } from 'zod';
import { cardPayoutSchema } from './disbursements';
import { appealSchema, offerSchema } from './fair-dealing';
import { feedbackSchema } from './feedback';

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
