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

/**
 * What a rejection still lacks (decision 051): a reason when the status is Rejected, and a note
 * when the reason is Other. The staff review form and the server both ask this one function.
 */
export function rejectionProblems(input: {
  status: string;
  reason: string | null | undefined;
  note: string | null | undefined;
}): { rejectionReason?: string; rejectionNote?: string } {
  if (input.status !== 'rejected') return {};
  if (!input.reason) return { rejectionReason: REJECTION_REASON_REQUIRED };
  if (input.reason === 'other' && !input.note?.trim()) {
    return { rejectionNote: REJECTION_NOTE_REQUIRED };
  }
  return {};
}

/** Unknown values are shown raw, as statuses are. */
export const rejectionReasonLabel = (reason: string) =>
  REJECTION_LABELS[reason as RejectionReason] ?? reason;

/** What the customer reads: the label, or for `other` the note staff wrote. */
export function rejectionText(reason: string, note: string | null): string {
  return reason === 'other' && note ? note : rejectionReasonLabel(reason);
}
