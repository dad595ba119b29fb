import { z } from 'zod';
import { formatMoney, fromCents, MONEY_PATTERN, toCents } from './money';
import { paymentMethodLabel } from './payment-methods';

/**
 * The books (issue 39, decision 093): double-entry, in integer cents, debit positive. The chart of
 * accounts: each code is a general-ledger account; the seller accounts keep one sub-account per
 * seller (their postings carry the seller's id).
 */
export const SELLER_PAYABLE = 'seller_payable';
export const SELLER_RECEIVABLE = 'seller_receivable';
export const CARDS_BOUGHT = 'cards_bought';
export const LOSSES = 'losses';
/** Money that left through one payment method: `paid_out:<payment type>`. */
export const PAID_OUT = 'paid_out';
export const paidOutAccount = (paymentType: string | null) =>
  `${PAID_OUT}:${paymentType ?? 'none'}`;

/**
 * Money sent through an automatic payout rail and not yet confirmed (issue 40, decision 120):
 * `on_the_way:<rail>`, a sub-account per seller.
 */
export const ON_THE_WAY = 'on_the_way';
export const onTheWayAccount = (rail: string) => `${ON_THE_WAY}:${rail}`;

const FIXED_ACCOUNTS: Record<string, string> = {
  [SELLER_PAYABLE]: 'Owed to sellers',
  [SELLER_RECEIVABLE]: 'Owed back by sellers',
  [CARDS_BOUGHT]: 'Gift cards bought',
  [LOSSES]: 'Losses written off',
};

/** An account's name as staff read it in the trial balance. */
export function accountName(code: string): string {
  const fixed = FIXED_ACCOUNTS[code];
  if (fixed) return fixed;
  const [prefix, type] = code.split(':');
  if (prefix === PAID_OUT && type) {
    return `Paid out: ${type === 'none' ? 'no payment method' : paymentMethodLabel(type)}`;
  }
  if (prefix === ON_THE_WAY && type) return `On the way: ${type} rail`;
  return code;
}

/** Where an account sits in the trial balance: the fixed ones, money out by method, on the way. */
export function accountOrder(code: string): number {
  const fixed = Object.keys(FIXED_ACCOUNTS).indexOf(code);
  return fixed >= 0 ? fixed : code.startsWith(`${ON_THE_WAY}:`) ? 200 : 100;
}

/**
 * Every kind of entry. A card's credit (what it is worth to its seller) moves with its approval,
 * a revised offer's answer and its rejection; its payment with the payment status; netting sets
 * part of a payment against what the seller owes back.
 */
export const ENTRY_KINDS = [
  'card_approved',
  'offer_accepted',
  'card_adjusted',
  'card_reversed',
  'payment_sent',
  'payment_reversed',
  'netting',
  'netting_reversed',
  'clawback',
  'clawback_reversed',
  'write_off',
  'payout_submitted',
  'payout_confirmed',
  'payout_failed',
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** The kinds that change what a card is credited at. */
export const CREDIT_KINDS: readonly EntryKind[] = [
  'card_approved',
  'offer_accepted',
  'card_adjusted',
  'card_reversed',
];
/** The kinds that pay a card (or take its payment back). */
export const PAYMENT_KINDS: readonly EntryKind[] = [
  'payment_sent',
  'payment_reversed',
  'netting',
  'netting_reversed',
];

/** Signed cents as a decimal string with 2 decimals: -1234 -> "-12.34". */
export function signedMoney(cents: number): string {
  const abs = Math.abs(cents);
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return cents < 0 ? `-${text}` : text;
}

/**
 * A signed decimal string as people read it: "-12.34" -> "-$12.34"; with `plus`, a positive one
 * gets its sign too ("+$12.34"), as a statement's credits do.
 */
export function formatSignedMoney(value: string, { plus = false } = {}): string {
  const cents = signedCents(value);
  const text = formatMoney(fromCents(Math.abs(cents)));
  if (cents < 0) return `-${text}`;
  return plus && cents > 0 ? `+${text}` : text;
}

/** A decimal string that may be signed ("-12.34") as integer cents. */
export function signedCents(value: string): number {
  const negative = value.startsWith('-');
  const cents = toCents(negative ? value.slice(1) : value);
  return negative ? -cents : cents;
}

/**
 * The netting rule (decision 093): what a seller owes back is set against their payouts oldest
 * card first (the order the payouts list pays in), so each card's share does not depend on the
 * order staff pay them in. `cards` are what the seller is owed per card, oldest first; answers
 * each card's share of `owedBack`, in cents.
 */
export function allocateNetting(
  owedBack: number,
  cards: readonly { id: string; owed: number }[],
): Map<string, number> {
  const shares = new Map<string, number>();
  let left = owedBack;
  for (const card of cards) {
    const share = Math.max(0, Math.min(card.owed, left));
    shares.set(card.id, share);
    left -= share;
  }
  return shares;
}

/** Why staff take money back from a seller (a card found redeemed after payment is the usual). */
export const CLAWBACK_REASONS = [
  'already_redeemed',
  'balance_differs',
  'chargeback',
  'other',
] as const;
export type ClawbackReason = (typeof CLAWBACK_REASONS)[number];

export const CLAWBACK_REASON_LABELS: Record<ClawbackReason, string> = {
  already_redeemed: 'Card already redeemed',
  balance_differs: 'Balance differs from what was paid for',
  chargeback: 'Chargeback',
  other: 'Other',
};

/**
 * A clawback is open while something is owed back, settled once netted, written off, or reversed
 * when the seller's appeal is upheld.
 */
export const CLAWBACK_STATUSES = ['open', 'settled', 'written_off', 'reversed'] as const;
export type ClawbackStatus = (typeof CLAWBACK_STATUSES)[number];

export const CLAWBACK_STATUS_LABELS: Record<ClawbackStatus, string> = {
  open: 'Owed back',
  settled: 'Settled',
  written_off: 'Written off',
  reversed: 'Reversed on appeal',
};

const moneyText = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .regex(MONEY_PATTERN, `${label} must be an amount such as 25.00`)
    .refine((v) => !MONEY_PATTERN.test(v) || toCents(v) > 0, `${label} must be more than 0`);

export const createClawbackSchema = z
  .object({
    amount: moneyText('The amount'),
    reason: z.enum(CLAWBACK_REASONS, { error: 'Choose a reason' }),
    /** What the seller reads with the reason; required with `other`, which it explains. */
    note: z.string().trim().max(2000, 'The note is at most 2000 characters').nullish(),
  })
  .superRefine((value, ctx) => {
    if (value.reason === 'other' && !value.note) {
      ctx.addIssue({ code: 'custom', path: ['note'], message: 'Say why in the note' });
    }
  });
export type CreateClawbackInput = z.infer<typeof createClawbackSchema>;

export const clawbackSchema = z.object({
  id: z.string(),
  transactionId: z.string(),
  amount: z.string(),
  /** What is still owed back: the amount less what was netted or written off. */
  outstanding: z.string(),
  reason: z.enum(CLAWBACK_REASONS),
  note: z.string().nullable(),
  status: z.enum(CLAWBACK_STATUSES),
  createdAt: z.string(),
});
export type Clawback = z.infer<typeof clawbackSchema>;

export const writeOffSchema = z.object({
  note: z.string().trim().min(1, 'Say why it is written off').max(2000),
});

export const balanceSchema = z.object({
  /** Approved cards not yet sent. */
  owed: z.string(),
  /** Sent to a payout rail, not yet confirmed. */
  onTheWay: z.string(),
  /** Paid in total. */
  paid: z.string(),
  /** Clawbacks not yet netted or written off. */
  owedBack: z.string(),
});
export type Balance = z.infer<typeof balanceSchema>;

export const statementItemSchema = z.object({
  id: z.string(),
  at: z.string(),
  kind: z.enum(ENTRY_KINDS),
  description: z.string(),
  /** Signed from the seller's side: what they are owed grows with a positive amount. */
  amount: z.string(),
  /** What the seller is owed after this line, less what they owe back. */
  balance: z.string(),
  transactionId: z.string().nullable(),
});
export type StatementItem = z.infer<typeof statementItemSchema>;

/** Lines per page of a statement (and of the staff's entries). */
export const LEDGER_PAGE = 50;

export const statementSchema = z.object({
  items: z.array(statementItemSchema),
  nextCursor: z.string().nullable(),
});
export type Statement = z.infer<typeof statementSchema>;

export const trialBalanceSchema = z.object({
  accounts: z.array(z.object({ code: z.string(), name: z.string(), balance: z.string() })),
  debits: z.string(),
  credits: z.string(),
  balanced: z.boolean(),
});
export type TrialBalance = z.infer<typeof trialBalanceSchema>;

export const ledgerEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  kind: z.enum(ENTRY_KINDS),
  memo: z.string(),
  transactionId: z.string().nullable(),
  clawbackId: z.string().nullable(),
  customerId: z.string().nullable(),
  actorEmail: z.string(),
  idempotencyKey: z.string(),
  postings: z.array(
    z.object({ account: z.string(), customerId: z.string().nullable(), amount: z.string() }),
  ),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/** The Books tab: owed per payout method, money out per day, owed back by age. */
export const booksSchema = z.object({
  owedTotal: z.string(),
  owedByMethod: z.array(
    z.object({ type: z.string().nullable(), label: z.string(), amount: z.string() }),
  ),
  outByDay: z.array(z.object({ day: z.string(), amount: z.string() })),
  owedBackAged: z.object({ days0to30: z.string(), days31to90: z.string(), over90: z.string() }),
});
export type Books = z.infer<typeof booksSchema>;
