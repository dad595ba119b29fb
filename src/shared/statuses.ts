/** Transaction and payment statuses with their labels and badge colours (spec section 4). */
export const TRANSACTION_STATUSES = ['pending', 'processing', 'completed', 'rejected'] as const;
/**
 * Every status a card can have: staff set TRANSACTION_STATUSES; `withdrawn` only its seller, from
 * pending, for good (decision 135).
 */
export const CARD_STATUSES = [...TRANSACTION_STATUSES, 'withdrawn'] as const;

export const PAYMENT_STATUSES = ['pending', 'sent', 'confirmed'] as const;

export type BadgeColour = 'yellow' | 'blue' | 'green' | 'red' | 'gray';

const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending Review',
  processing: 'Processing',
  completed: 'Completed',
  rejected: 'Rejected',
  withdrawn: 'Withdrawn',
};
const STATUS_COLOURS: Record<string, BadgeColour> = {
  pending: 'yellow',
  processing: 'blue',
  completed: 'green',
  rejected: 'red',
  withdrawn: 'gray',
};
const PAYMENT_LABELS: Record<string, string> = {
  pending: 'Payment Pending',
  sent: 'Payment Sent',
  confirmed: 'Payment Confirmed',
};
const PAYMENT_COLOURS: Record<string, BadgeColour> = {
  pending: 'yellow',
  sent: 'blue',
  confirmed: 'green',
};

/** Other values are shown raw (spec section 4). */
export const statusLabel = (status: string) => STATUS_LABELS[status] ?? status;
export const statusColour = (status: string): BadgeColour => STATUS_COLOURS[status] ?? 'gray';
export const paymentStatusLabel = (status: string) => PAYMENT_LABELS[status] ?? status;
export const paymentStatusColour = (status: string): BadgeColour =>
  PAYMENT_COLOURS[status] ?? 'gray';

export const TICKET_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;
const TICKET_LABELS: Record<string, string> = {
  open: 'Open',
  in_progress: 'In Progress',
  resolved: 'Resolved',
  closed: 'Closed',
};
const TICKET_COLOURS: Record<string, BadgeColour> = {
  open: 'blue',
  in_progress: 'yellow',
  resolved: 'green',
  closed: 'gray',
};
export const ticketStatusLabel = (status: string) => TICKET_LABELS[status] ?? status;
export const ticketStatusColour = (status: string): BadgeColour => TICKET_COLOURS[status] ?? 'gray';

/**
 * What happens to the customer's money, in one plain status per card (issue 24, decision 060):
 * derived from `status` and `paymentStatus` here only, so History, the card's detail, the
 * dashboard, the receipt and the stats agree.
 * - Payment sent or confirmed: **Paid**, whatever the review status says (the money went out).
 * - Otherwise rejected: **Rejected (no payout)**.
 * - Otherwise processing or completed: **Approved (awaiting payment)**.
 * - Otherwise (pending, or a status this code does not know): **Under review**.
 */
export const PAID_PAYMENT_STATUSES = ['sent', 'confirmed'] as const;
export const isPaid = (paymentStatus: string) =>
  (PAID_PAYMENT_STATUSES as readonly string[]).includes(paymentStatus);

export const MONEY_STATUSES = [
  'under_review',
  'approved',
  'paid',
  'rejected',
  'withdrawn',
] as const;
export type MoneyStatusKey = (typeof MONEY_STATUSES)[number];

export interface MoneyStatus {
  key: MoneyStatusKey;
  /** The plain status the customer reads. */
  label: string;
  colour: BadgeColour;
  /** What the Payment column reads: the spec's payment label, or "No payout" on a rejected card. */
  paymentLabel: string;
  paymentColour: BadgeColour;
  /** Whether a payout is still to come or came: false for a rejected card (no expected payout). */
  hasPayout: boolean;
  /** A receipt exists only for money paid. */
  hasReceipt: boolean;
}

export const NO_PAYOUT = 'No payout';

const MONEY_LABELS: Record<MoneyStatusKey, [string, BadgeColour]> = {
  under_review: ['Under review', 'yellow'],
  approved: ['Approved (awaiting payment)', 'blue'],
  paid: ['Paid', 'green'],
  rejected: ['Rejected (no payout)', 'red'],
  withdrawn: ['Withdrawn (no payout)', 'gray'],
};

export function moneyStatusKey(status: string, paymentStatus: string): MoneyStatusKey {
  if (isPaid(paymentStatus)) return 'paid';
  if (status === 'rejected') return 'rejected';
  if (status === 'withdrawn') return 'withdrawn';
  if (status === 'processing' || status === 'completed') return 'approved';
  return 'under_review';
}

export function moneyStatus(status: string, paymentStatus: string): MoneyStatus {
  const key = moneyStatusKey(status, paymentStatus);
  const [label, colour] = MONEY_LABELS[key];
  const rejected = key === 'rejected' || key === 'withdrawn';
  return {
    key,
    label,
    colour,
    paymentLabel: rejected ? NO_PAYOUT : paymentStatusLabel(paymentStatus),
    paymentColour: rejected ? 'gray' : paymentStatusColour(paymentStatus),
    hasPayout: !rejected,
    hasReceipt: key === 'paid',
  };
}
