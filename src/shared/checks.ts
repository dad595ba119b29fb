/** The automated checks run on every card at submission (issue 11), with their staff labels. */
export const CHECK_TYPES = [
  'duplicate_image',
  'duplicate_code',
  'similar_image',
  'velocity',
  'new_account',
  'high_value',
  'minimum',
] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

export const CHECK_LABELS: Record<CheckType, string> = {
  duplicate_image: 'Same photo on another card',
  duplicate_code: 'Code already submitted',
  similar_image: 'Photo like another customer’s card',
  velocity: 'Many cards in 24 hours',
  new_account: 'New account',
  high_value: 'High value',
  minimum: 'Brand minimum',
};

export const checkLabel = (type: string) => CHECK_LABELS[type as CheckType] ?? type;

/**
 * A check's verdict: `flagged` needs a look before the card is paid; `info` is worth knowing but
 * flags nothing alone (a new account: every customer's first card would be flagged); `passed`.
 * A card is flagged only when one of its checks is.
 */
export const CHECK_STATUSES = ['passed', 'info', 'flagged'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** More cards than this from one customer within 24 hours is flagged. */
export const VELOCITY_LIMIT = 5;
/** A card value from this many cents is flagged. */
export const HIGH_VALUE_CENTS = 500_00;
/** Two images whose 64-bit difference hashes differ in at most this many bits look alike. */
export const SIMILAR_IMAGE_BITS = 10;
