import { z } from 'zod';

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
});
export type Transaction = z.infer<typeof transactionSchema>;

export const statsSchema = z.object({
  totalSubmitted: z.number(),
  pending: z.number(),
  completed: z.number(),
  totalEarned: z.string(),
});
export type Stats = z.infer<typeof statsSchema>;

export const RECENT_TRANSACTIONS_LIMIT = 5;
