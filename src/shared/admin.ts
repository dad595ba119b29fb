import { z } from 'zod';
import { APPEAL_STATUSES, overValueReasonSchema } from './fair-dealing';
import { instantDecisionSchema } from './instant-decisions';
import { MAX_MONEY_CENTS, MONEY_PATTERN, toCents } from './money';
import { wholeNumberParam } from './params';
import { payoutReferenceSchema } from './payouts';
import { REJECTION_NOTE_MAX_LENGTH, REJECTION_REASONS } from './rejections';
import { CARD_STATUSES, PAYMENT_STATUSES, TRANSACTION_STATUSES } from './statuses';

export const VALIDATION_STATUSES = ['flagged', 'passed', 'pending'] as const;

import { transactionSchema } from './transactions';

export const ADMIN_PAGE_SIZE = 25;
/** The response header carrying the cursor of the next page, when there is one. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/** A staff member holding a card for review (decision 078). */
export const claimantSchema = z.object({ id: z.string(), name: z.string() });
export type Claimant = z.infer<typeof claimantSchema>;

/** A transaction as staff see it: with its customer and where to pay (spec section 3). */
export const adminTransactionSchema = transactionSchema.omit({ queue: true }).extend({
  userId: z.string(),
  userEmail: z.string().nullable(),
  userFirstName: z.string().nullable(),
  userLastName: z.string().nullable(),
  /** Whether the customer confirmed their email address. */
  userEmailVerified: z.boolean(),
  paymentMethodIdentifier: z.string().nullable(),
  paymentMethodAccountNumber: z.string().nullable(),
  paymentMethodBankName: z.string().nullable(),
  paymentMethodRoutingNumber: z.string().nullable(),
  /** pending, then `flagged` or `passed` by the automated checks at submission. */
  validationStatus: z.string(),
  /** The automated checks that flagged the card (validation types), for the queue's flag. */
  validationFlags: z.array(z.string()),
  /**
   * When the payout may go (ISO time) while a hold lasts: a new payee or a new account (decision
   * 072); null when it may be paid now.
   */
  payoutHoldUntil: z.string().nullable(),
  /**
   * The answer to the scam question at submission: 'no', or null when the client sent none (an
   * older app; the queue marks it).
   */
  scamCheck: z.string().nullable(),
  /** When staff first decided anything about the card; null while it waits (review times). */
  firstDecisionAt: z.string().nullable(),
  /** The staff member reviewing it now (decision 078); null when nobody holds it. */
  claimedBy: claimantSchema.nullable(),
  /**
   * The instant-decision rules at submission (decision 131): `{ rules }` that held when the card
   * was approved at once, `{ refusedBecause }` when it waited for a person; null before them.
   */
  instantDecision: instantDecisionSchema.nullable(),
  /** A sampled instant decision's after-review: pending, confirmed or clawback; else null. */
  sampleStatus: z.string().nullable(),
});
export type AdminTransaction = z.infer<typeof adminTransactionSchema>;

// --- Claimed reviews (issue 21, decision 078) ---

/** A claim lapses this long after its holder's last activity on the card. */
export const CLAIM_MINUTES = 15;
/** POST /api/admin/transactions/{id}/claim: `takeOver` takes a card another staff member holds. */
export const claimRequestSchema = z
  .object({ takeOver: z.boolean({ error: 'takeOver must be true or false' }).optional() })
  .nullish();
export const claimSchema = z.object({ claimedBy: claimantSchema, claimedUntil: z.string() });
export type Claim = z.infer<typeof claimSchema>;
/** The 409 when another staff member holds the card. */
export const claimedMessage = (by: Claimant) =>
  `${by.name} is reviewing this card. Take it over to save your changes.`;

export const auditEntrySchema = z.object({
  id: z.string(),
  actorEmail: z.string(),
  action: z.string(),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** One automated check of a card at submission (validation_logs). */
export const checkSchema = z.object({
  validationType: z.string(),
  status: z.string(),
  details: z.string(),
  /** The other cards a duplicate or look-alike photo was found on. */
  relatedTransactionIds: z.array(z.string()),
  createdAt: z.string(),
});
export type Check = z.infer<typeof checkSchema>;

/**
 * A card that pays more than its value × its rate, or than the offer the customer accepted
 * (decision 106): the amount, the most it pays without a reason, and the owner's reason, who gave
 * it and when (null for an amount set before the rule, without one).
 */
export const overValueSchema = z.object({
  amount: z.string(),
  ceiling: z.string(),
  reason: z.string().nullable(),
  by: z.string().nullable(),
  at: z.string().nullable(),
});
export type OverValue = z.infer<typeof overValueSchema>;

export const adminTransactionDetailSchema = adminTransactionSchema.extend({
  audit: z.array(auditEntrySchema),
  checks: z.array(checkSchema),
  /** Of `imageUrls`, the photos the retention run deleted (issue 22): shown as removed. */
  removedImages: z.array(z.string()),
  /**
   * The card's code or PIN in full (decision 082), to staff who review cards: each answer that
   * carries it is audited. Null when none was given, or for a role that does not review.
   */
  cardCode: z.string().nullable(),
  /** Null unless the card pays over its value (decision 106). */
  overValue: overValueSchema.nullable(),
});
export type AdminTransactionDetail = z.infer<typeof adminTransactionDetailSchema>;

export const QUEUE_SORTS = ['newest', 'waiting'] as const;
export const SAMPLE_STATUSES = ['pending', 'confirmed', 'clawback'] as const;
export type QueueSort = (typeof QUEUE_SORTS)[number];

export const adminListQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  status: z.enum(['all', ...CARD_STATUSES]).optional(),
  /** The automated checks' verdict: `flagged` lists the cards a check flagged. */
  validation: z
    .enum(['all', ...VALIDATION_STATUSES], {
      error: `validation must be one of: all, ${VALIDATION_STATUSES.join(', ')}`,
    })
    .optional(),
  /** `pending`: the cards whose appeal waits for a decision (decision 073). */
  appeal: z
    .enum(['all', ...APPEAL_STATUSES], {
      error: `appeal must be one of: all, ${APPEAL_STATUSES.join(', ')}`,
    })
    .optional(),
  /**
   * `newest` (the default): newest first. `waiting`: the cards waiting for a decision (pending)
   * first, the one waiting longest at the top, then the rest newest first (the portal's queue).
   */
  sort: z.enum(QUEUE_SORTS, { error: `sort must be one of: ${QUEUE_SORTS.join(', ')}` }).optional(),
  /** `pending`: the sampled instant decisions awaiting a person (decision 131). */
  sampled: z
    .enum(SAMPLE_STATUSES, { error: `sampled must be one of: ${SAMPLE_STATUSES.join(', ')}` })
    .optional(),
  cursor: z.string().max(200).optional(),
  limit: wholeNumberParam('limit', 1, 100).default(ADMIN_PAGE_SIZE),
});

export const PAYMENT_AMOUNT_MESSAGE =
  'Payment amount must be a number from 0 to 99,999,999.99 with at most 2 decimals';

/** PATCH /api/admin/transactions/{id}: only known statuses, and money as a decimal. */
export const updateTransactionSchema = z.object({
  status: z
    .enum(TRANSACTION_STATUSES, {
      error: `Status must be one of: ${TRANSACTION_STATUSES.join(', ')}`,
    })
    .optional(),
  paymentStatus: z
    .enum(PAYMENT_STATUSES, {
      error: `Payment status must be one of: ${PAYMENT_STATUSES.join(', ')}`,
    })
    .optional(),
  paymentAmount: z
    .union([z.string(), z.number()], { error: PAYMENT_AMOUNT_MESSAGE })
    .nullable()
    .optional()
    .transform((v) => (v === undefined || v === null ? v : String(v).trim()))
    .refine(
      (v) =>
        v === undefined || v === null || (MONEY_PATTERN.test(v) && toCents(v) <= MAX_MONEY_CENTS),
      PAYMENT_AMOUNT_MESSAGE,
    ),
  adminNotes: z.string().max(2000, 'Admin notes are too long').nullable().optional(),
  /** The transfer id of the payout (up to 100 characters); blank or null clears it. */
  payoutReference: payoutReferenceSchema,
  /** Required with status rejected (unless the card has one); cleared when it leaves rejected. */
  rejectionReason: z
    .enum(REJECTION_REASONS, {
      error: `Rejection reason must be one of: ${REJECTION_REASONS.join(', ')}`,
    })
    .nullable()
    .optional(),
  /** Required with the reason `other`, and kept with no other reason. */
  rejectionNote: z
    .string({ error: 'Rejection note must be text' })
    .trim()
    .max(
      REJECTION_NOTE_MAX_LENGTH,
      `Rejection note must be at most ${REJECTION_NOTE_MAX_LENGTH} characters`,
    )
    .nullable()
    .optional(),
  /** An owner's reason to pay more than the card's value × its rate (decision 106): audited. */
  overValueReason: overValueReasonSchema,
  /** Save even though another staff member holds the card (decision 078): audited. */
  takeOver: z.boolean({ error: 'takeOver must be true or false' }).optional(),
  /**
   * The row's updatedAt when the dialog loaded it; a newer row means someone else saved. Required
   * (decision 108): a save that does not say which version it changes could undo another unseen.
   */
  expectedUpdatedAt: z.iso.datetime({
    offset: true,
    error: (issue) =>
      issue.input === undefined
        ? 'expectedUpdatedAt is required: the updatedAt of the card as you loaded it'
        : 'expectedUpdatedAt must be an ISO date',
  }),
});

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  isAdmin: z.boolean(),
  emailVerified: z.boolean(),
  /**
   * Submissions the scam question stopped (decision 073): the customer said a stranger asked them
   * to pay with the card. Staff may reach out.
   */
  scamCheckRefusals: z.number(),
  lastScamCheckRefusalAt: z.string().nullable(),
  createdAt: z.string(),
  /** active, suspended or closed (decision 072). */
  standing: z.enum(['active', 'suspended', 'closed']),
  verificationLevel: z.number(),
  /** Why the account was suspended or closed; null while active. */
  standingReason: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminStatsSchema = z.object({
  totalTransactions: z.number(),
  pendingReview: z.number(),
  totalUsers: z.number(),
  chatMessages: z.number(),
  /** Customers' ratings of completed cards: the average to one decimal ("4.5"), null for none. */
  averageRating: z.string().nullable(),
  ratingCount: z.number(),
  /** Customer messages no staff member has read yet (the Chat Support tab's badge). */
  unreadChatMessages: z.number(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

/** POST /api/admin/users/{id}/suspend and /close (decision 072): why, and a note for staff. */
export const standingChangeSchema = z.object({
  reason: z
    .string({ error: 'Reason is required' })
    .trim()
    .min(1, 'Reason is required')
    .max(500, 'Reason must be at most 500 characters'),
  note: z
    .string({ error: 'Note must be text' })
    .trim()
    .max(2000, 'Note must be at most 2000 characters')
    .optional()
    .nullable(),
});
