/** Transaction and payment statuses with their labels and badge colours (spec section 4). */
export const TRANSACTION_STATUSES = ['pending', 'processing', 'completed', 'rejected'] as const;

export const PAYMENT_STATUSES = ['pending', 'sent', 'confirmed'] as const;

export type BadgeColour = 'yellow' | 'blue' | 'green' | 'red' | 'gray';

const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending Review',
  processing: 'Processing',
  completed: 'Completed',
  rejected: 'Rejected',
};
const STATUS_COLOURS: Record<string, BadgeColour> = {
  pending: 'yellow',
  processing: 'blue',
  completed: 'green',
  rejected: 'red',
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
