import { z } from 'zod';
import { adminTransactionSchema, adminUserSchema, auditEntrySchema } from './admin';
import { wholeNumberParam } from './params';
import { paymentMethodSchema } from './payment-methods';
import { sessionSchema } from './sessions';
import { chatMessageSchema, ticketSchema } from './support';
import { verificationStateSchema } from './verification';

/**
 * A page per customer for staff (issue 43 item 15, decisions 144 and 145):
 * GET /api/admin/users/{id} answers every section at once, each list its first page.
 */

export const CUSTOMER_NOTE_MAX_LENGTH = 2000;
/** How many rows each paged section of the customer page carries. */
export const CUSTOMER_PAGE_SIZE = 25;

/** POST /api/admin/users/{id}/notes: a note staff leave for each other about the customer. */
export const customerNoteInputSchema = z.object({
  body: z
    .string({ error: 'Note is required' })
    .trim()
    .min(1, 'Note is required')
    .max(
      CUSTOMER_NOTE_MAX_LENGTH,
      `Note must be at most ${CUSTOMER_NOTE_MAX_LENGTH.toLocaleString('en-US')} characters`,
    ),
});
export type CustomerNoteInput = z.input<typeof customerNoteInputSchema>;

export const customerNoteSchema = z.object({
  id: z.string(),
  body: z.string(),
  authorId: z.string(),
  /** The staff member's name (or email) as it was when they wrote it. */
  authorName: z.string(),
  createdAt: z.string(),
});
export type CustomerNote = z.infer<typeof customerNoteSchema>;

/** A list's first page, and the cursor of the next one (null at the end). */
const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

/** The follow-up pages of a paged section: GET /api/admin/users/{id}/{section}?cursor=. */
export const customerPageQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: wholeNumberParam('limit', 1, 100).default(CUSTOMER_PAGE_SIZE),
});

/**
 * A card of the customer's that is paid or approved and waiting for payment: what it pays, how
 * far the payment got, and where it goes.
 */
export const customerPayoutSchema = z.object({
  id: z.string(),
  cardType: z.string(),
  cardValue: z.string(),
  status: z.string(),
  /** What it pays: staff's amount, else the quote. */
  amount: z.string(),
  paymentStatus: z.string(),
  paymentMethodType: z.string().nullable(),
  payoutReference: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomerPayout = z.infer<typeof customerPayoutSchema>;

/** A payment method as the review dialog shows it (the same fields as its owner sees). */
export const customerPaymentMethodSchema = paymentMethodSchema;
export type CustomerPaymentMethod = z.infer<typeof customerPaymentMethodSchema>;

/** Standing now (decision 072), and its changes, newest first. */
export const customerStandingSchema = z.object({
  standing: adminUserSchema.shape.standing,
  reason: z.string().nullable(),
  /** Staff's note with the last suspension or closing. */
  note: z.string().nullable(),
  changedAt: z.string().nullable(),
  history: z.array(auditEntrySchema),
});

export const customerSessionSchema = sessionSchema.omit({ current: true });

export const customerPageSchema = z.object({
  user: adminUserSchema,
  transactions: pageOf(adminTransactionSchema),
  payouts: pageOf(customerPayoutSchema),
  paymentMethods: z.array(customerPaymentMethodSchema),
  /** What the customer's own verification page shows: level, limits, submissions (no documents). */
  verification: verificationStateSchema,
  standing: customerStandingSchema,
  sessions: z.array(customerSessionSchema),
  /** The conversation, oldest first; null for a role without `chat` (decision 145). */
  chat: pageOf(chatMessageSchema).nullable(),
  /** The customer's tickets, newest first; null for a role without `tickets` (decision 145). */
  tickets: pageOf(ticketSchema).nullable(),
  notes: pageOf(customerNoteSchema),
});
export type CustomerPage = z.infer<typeof customerPageSchema>;

export const customerTransactionsPageSchema = pageOf(adminTransactionSchema);
export const customerPayoutsPageSchema = pageOf(customerPayoutSchema);
export const customerNotesPageSchema = pageOf(customerNoteSchema);
