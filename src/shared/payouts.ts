import { z } from 'zod';
import { fromCents, MAX_MONEY_CENTS, MONEY_PATTERN, toCents } from './money';

/**
 * A card is approved for payment when staff set it processing or completed and its payment is
 * still pending (decision 052).
 */
export const PAYABLE_STATUSES = ['processing', 'completed'] as const;
export const isPayable = (card: {
  status: string;
  paymentStatus: string;
  /** A revised offer waiting for the customer's answer holds the payment (decision 073). */
  offerStatus?: string | null;
}) =>
  (PAYABLE_STATUSES as readonly string[]).includes(card.status) &&
  card.paymentStatus === 'pending' &&
  card.offerStatus !== 'pending';

/** The total of some amounts to pay, as a decimal string. */
export const sumOf = (cards: { amount: string }[]) =>
  fromCents(cards.reduce((sum, c) => sum + toCents(c.amount), 0));

/** The oldest cards waiting that one view (and one export) lists; the rest come after. */
export const PAYOUT_LIST_LIMIT = 500;
/** Cards in one "mark as sent". */
export const MARK_SENT_LIMIT = 200;

/** One card to pay: who, where, and how much (paymentAmount when staff set one, else expected). */
export const payoutCardSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  cardType: z.string(),
  cardValue: z.string(),
  status: z.string(),
  paymentAmount: z.string().nullable(),
  expectedPayout: z.string(),
  /** What to send, as a decimal string: what the card is owed, less `netted`. */
  amount: z.string(),
  /** The part of the card's payout set against what its seller owes back (issue 39). */
  netted: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  userFirstName: z.string().nullable(),
  userLastName: z.string().nullable(),
  paymentMethodType: z.string().nullable(),
  paymentMethodAccountName: z.string().nullable(),
  paymentMethodIdentifier: z.string().nullable(),
  paymentMethodAccountNumber: z.string().nullable(),
  paymentMethodBankName: z.string().nullable(),
  paymentMethodRoutingNumber: z.string().nullable(),
  /** Null for a listed card: cards that must wait are left out and listed in `held`. */
  payoutHoldUntil: z.string().nullable(),
});
export type PayoutCard = z.infer<typeof payoutCardSchema>;

export const payoutGroupSchema = z.object({
  /** The payment method type (PAYMENT_METHOD_TYPES), null for cards without a method. */
  type: z.string().nullable(),
  label: z.string(),
  count: z.number(),
  total: z.string(),
  cards: z.array(payoutCardSchema),
});
export type PayoutGroup = z.infer<typeof payoutGroupSchema>;

/** GET /api/admin/payouts */
export const payoutsSchema = z.object({
  groups: z.array(payoutGroupSchema),
  count: z.number(),
  total: z.string(),
  /** Cards waiting beyond the PAYOUT_LIST_LIMIT listed (the oldest are listed first). */
  more: z.number(),
  /**
   * Approved cards left out because they may not be paid yet (decision 072): a hold for a new
   * payee or a new account, until `payoutHoldUntil`, or a suspended customer (then null).
   */
  held: z.array(
    z.object({
      id: z.string(),
      cardType: z.string(),
      amount: z.string(),
      userId: z.string(),
      userEmail: z.string(),
      reason: z.enum(['new_method', 'new_account', 'account_suspended']),
      message: z.string(),
      payoutHoldUntil: z.string().nullable(),
    }),
  ),
});
export type Payouts = z.infer<typeof payoutsSchema>;

export const PAYOUT_REFERENCE_MAX_LENGTH = 100;
export const PAYOUT_REFERENCE_MESSAGE = `Payout reference must be text of at most ${PAYOUT_REFERENCE_MAX_LENGTH} characters`;

/**
 * The transfer id of a payout (a PayPal transaction id, a bank reference), optional; blank means
 * none. Printed on the receipt and shown to the customer.
 */
export const payoutReferenceSchema = z
  .string({ error: PAYOUT_REFERENCE_MESSAGE })
  .trim()
  .max(PAYOUT_REFERENCE_MAX_LENGTH, PAYOUT_REFERENCE_MESSAGE)
  .nullish()
  .transform((v) => (v === undefined ? undefined : v ? v : null));

const AMOUNT_MESSAGE = 'Amount must be the amount shown, a number with at most 2 decimals';

/**
 * POST /api/admin/payouts/mark-sent: the cards paid and the amount each was paid, as the list
 * showed it; a card whose amount changed since is not marked.
 */
export const markSentSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.uuid({ error: 'Each id must be a transaction id' }),
        amount: z
          .string({ error: AMOUNT_MESSAGE })
          .trim()
          .refine((v) => MONEY_PATTERN.test(v) && toCents(v) <= MAX_MONEY_CENTS, AMOUNT_MESSAGE),
      }),
      { error: 'items must be a list of cards and amounts' },
    )
    .min(1, 'Select at least one card')
    .max(MARK_SENT_LIMIT, `At most ${MARK_SENT_LIMIT} cards at a time`)
    .refine(
      (items) => new Set(items.map((i) => i.id)).size === items.length,
      'Each card may be named once',
    ),
  /** One reference for the whole batch (one bank file, one PayPal payout), optional. */
  payoutReference: payoutReferenceSchema,
});
export type MarkSentInput = z.input<typeof markSentSchema>;
/** A mark-sent batch as the server reads it (the body parsed). */
export type MarkSentBatch = z.output<typeof markSentSchema>;

export const SKIP_REASONS = [
  'not_found',
  'not_payable',
  'amount_changed',
  /** Held for a new payee or a new account, or its customer is suspended (decision 072). */
  'payout_hold',
  'account_suspended',
] as const;

export const markSentResultSchema = z.object({
  /** Cards now Payment Sent, with the amount recorded as paid. */
  sent: z.array(z.object({ id: z.string(), amount: z.string() })),
  /** The sum of `sent`. */
  total: z.string(),
  /** Cards left as they were, and why. */
  skipped: z.array(z.object({ id: z.string(), reason: z.enum(SKIP_REASONS), message: z.string() })),
});
export type MarkSentResult = z.infer<typeof markSentResultSchema>;

// --- What a seller is told about a payout hold (decision 072; issue 43 item 17) ---

export type PayoutHoldReason = 'new_method' | 'new_account';

/** Why a seller's payout waits, in their words (the time is said beside it). */
export const PAYOUT_HOLD_WHY: Record<PayoutHoldReason, string> = {
  new_method:
    'payouts to a payment method added or changed recently wait a while, so that a stolen password cannot redirect your money',
  new_account:
    'the first payouts of a new account wait a while, so that a stolen card cannot be cashed out at once',
};

/** "Payment can be sent from <when>: <why>." */
export const payoutHoldText = (when: string, reason: PayoutHoldReason) =>
  `Payment can be sent from ${when}: ${PAYOUT_HOLD_WHY[reason]}.`;
