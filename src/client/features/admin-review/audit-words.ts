import type { AuditEntry } from '@shared/admin';
import { CLAWBACK_REASON_LABELS } from '@shared/ledger';
import { formatMoney } from '@shared/money';
import { rejectionReasonLabel } from '@shared/rejections';
import { paymentStatusLabel, statusLabel } from '@shared/statuses';
import { formatDateTime } from '@/lib/dates';

/**
 * A card's history in words (issue 43, item 11): each audit entry as a sentence saying what
 * happened, and a line per field changed, with labels, money and dates written as people read
 * them. No raw field name, no `[object Object]`; a view of the card code is a view, not an edit.
 */
export interface AuditWords {
  /** What happened, e.g. "Changed the card", "Viewed the card code". */
  what: string;
  /** One line per change, e.g. "Status: Pending → Rejected". */
  lines: string[];
}

const ACTIONS: Record<string, string> = {
  update: 'Changed the card',
  payout_sent: 'Payout marked sent from Payouts',
  offer: 'Made a revised offer',
  offer_accepted: 'The customer accepted the revised offer',
  offer_declined: 'The customer declined the revised offer',
  offer_expired: 'The revised offer expired unanswered',
  appeal: 'The customer appealed',
  appeal_decision: 'Decided the appeal',
  view_card_code: 'Viewed the card code',
  take_over: 'Took over the review from another staff member',
  clawback: 'Took money back',
  write_off: 'Wrote off money owed back',
  claim: 'Opened the card for review',
};

const LABELS: Record<string, string> = {
  status: 'Status',
  paymentStatus: 'Payment status',
  paymentAmount: 'Payment amount',
  adminNotes: 'Admin notes',
  payoutReference: 'Payout reference',
  rejectionReason: 'Rejection reason',
  rejectionNote: 'Rejection note',
  offerStatus: 'Offer',
  appealStatus: 'Appeal',
  appealMessage: 'Appeal message',
  appealNote: 'Decision note',
  overValueReason: 'Paid above the card’s value because',
  claimedBy: 'Reviewer',
};

const OFFER_STATES: Record<string, string> = {
  pending: 'Waiting for the customer',
  accepted: 'Accepted',
  declined: 'Declined',
  expired: 'Expired',
};
const APPEAL_STATES: Record<string, string> = {
  pending: 'Waiting for a decision',
  upheld: 'Upheld (the decision stands)',
  overturned: 'Overturned',
};

/** `someFieldName` → "Some field name" (a field this page has no label for yet). */
export const fieldWords = (field: string) => {
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replaceAll('_', ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const money = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? formatMoney(String(value)) : '—';

/** One value as words, by the field it belongs to. */
export function valueWords(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) {
    if (value.length === 0) return '—';
    return value.every((v) => typeof v === 'string' && v.startsWith('/objects/'))
      ? `${value.length} ${value.length === 1 ? 'photo' : 'photos'} attached`
      : value.map((v) => valueWords(field, v)).join(', ');
  }
  if (isRecord(value)) {
    return Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .map(([key, v]) => `${fieldWords(key).toLowerCase()} ${valueWords(key, v)}`)
      .join(', ');
  }
  const text = String(value);
  switch (field) {
    case 'status':
      return statusLabel(text);
    case 'paymentStatus':
      return paymentStatusLabel(text);
    case 'paymentAmount':
    case 'amount':
    case 'verifiedValue':
      return money(value);
    case 'rejectionReason':
      return rejectionReasonLabel(text);
    case 'offerStatus':
      return OFFER_STATES[text] ?? text;
    case 'appealStatus':
      return APPEAL_STATES[text] ?? text;
    case 'reason':
      return CLAWBACK_REASON_LABELS[text as keyof typeof CLAWBACK_REASON_LABELS] ?? text;
    case 'expiresAt':
      return formatDateTime(text);
    default:
      return text;
  }
}

/** A change whose value is a whole record (an offer, a clawback): said as one sentence. */
function recordLine(field: string, to: Record<string, unknown>): string {
  switch (field) {
    case 'offer': {
      const note = to.note ? `: “${String(to.note)}”` : '';
      return `Offered ${money(to.amount)} for a verified value of ${money(to.verifiedValue)}, answer by ${valueWords('expiresAt', to.expiresAt)}${note}`;
    }
    case 'clawback':
      return `Took back ${money(to.amount)}: ${valueWords('reason', to.reason)}${to.note ? `, “${String(to.note)}”` : ''}`;
    case 'writtenOff':
      return `Wrote off ${money(to.amount)}${to.note ? `: “${String(to.note)}”` : ''}`;
    default:
      return `${fieldWords(field)}: ${valueWords(field, to)}`;
  }
}

/** An audit entry of a card, in words. */
export function auditWords(entry: AuditEntry): AuditWords {
  const what = ACTIONS[entry.action] ?? fieldWords(entry.action);
  // A code view reads nothing into the card: said once, with the code's last characters.
  if (entry.action === 'view_card_code') {
    const seen = entry.changes.cardCode?.to;
    return { what: seen ? `${what} (${String(seen)})` : what, lines: [] };
  }
  const lines = Object.entries(entry.changes).map(([field, { from, to }]) => {
    if (isRecord(to)) return recordLine(field, to);
    if (field === 'appealImageUrls') return `Appeal photos: ${valueWords(field, to)}`;
    const label = LABELS[field] ?? fieldWords(field);
    return `${label}: ${valueWords(field, from)} → ${valueWords(field, to)}`;
  });
  return { what, lines };
}
