/** Why staff rejected a card: one of these, and a note when it is `other` (decision 051). */
export const REJECTION_REASONS = [
  'code_invalid',
  'already_redeemed',
  'balance_differs',
  'image_unreadable',
  'suspected_fraud',
  'other',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export const REJECTION_LABELS: Record<RejectionReason, string> = {
  code_invalid: 'Code invalid',
  already_redeemed: 'Already redeemed',
  balance_differs: 'Balance differs',
  image_unreadable: 'Image unreadable',
  suspected_fraud: 'Suspected fraud',
  other: 'Other',
};

/** The note that goes with `other`, as long as its column allows. */
export const REJECTION_NOTE_MAX_LENGTH = 500;

export const REJECTION_REASON_REQUIRED = 'Rejection reason is required when the status is Rejected';
export const REJECTION_NOTE_REQUIRED = 'Rejection note is required when the reason is Other';

/** Unknown values are shown raw, as statuses are. */
export const rejectionReasonLabel = (reason: string) =>
  REJECTION_LABELS[reason as RejectionReason] ?? reason;

/** What the customer reads: the label, or for `other` the note staff wrote. */
export function rejectionText(reason: string, note: string | null): string {
  return reason === 'other' && note ? note : rejectionReasonLabel(reason);
}
