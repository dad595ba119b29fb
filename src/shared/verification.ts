import { z } from 'zod';
import { formatMoney, fromCents, MAX_MONEY_CENTS, MONEY_PATTERN, toCents } from './money';
import { isCalendarDate, wholeNumberParam } from './params';

/**
 * Verified sellers (decision 072): every customer has a level, 0 (everyone), 1 (identity checked)
 * or 2 (address checked), and the level sets how much card value they may submit.
 */
export const VERIFICATION_LEVELS = [0, 1, 2] as const;
export type VerificationLevel = (typeof VERIFICATION_LEVELS)[number];
export const MAX_VERIFICATION_LEVEL = 2;

export const VERIFICATION_STATUSES = ['none', 'pending', 'approved', 'rejected'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const SUBMISSION_STATUSES = ['pending', 'approved', 'rejected'] as const;

export const DOCUMENT_TYPES = ['passport', 'driving_licence', 'national_id'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  passport: 'Passport',
  driving_licence: 'Driving licence',
  national_id: 'National ID card',
};
/** Document types with a back to photograph as well as a front. */
export const HAS_BACK: Record<DocumentType, boolean> = {
  passport: false,
  driving_licence: true,
  national_id: true,
};

export const VERIFICATION_REJECTION_REASONS = [
  'document_unreadable',
  'document_expired',
  'name_mismatch',
  'selfie_mismatch',
  'under_18',
  'other',
] as const;
export type VerificationRejectionReason = (typeof VERIFICATION_REJECTION_REASONS)[number];
export const VERIFICATION_REJECTION_LABELS: Record<VerificationRejectionReason, string> = {
  document_unreadable: 'Document unreadable',
  document_expired: 'Document expired',
  name_mismatch: 'Name does not match',
  selfie_mismatch: 'Selfie does not match',
  under_18: 'Under 18',
  other: 'Other',
};
export const verificationRejectionLabel = (reason: string) =>
  VERIFICATION_REJECTION_LABELS[reason as VerificationRejectionReason] ?? reason;

export const MINIMUM_AGE = 18;
export const UNDER_18 = `You must be at least ${MINIMUM_AGE} years old to sell on Cardbridge`;
export const DOCUMENT_PREFIX = '/objects/verification/';
/** The objectPath /api/upload-verification-document answers: a random name in its own prefix. */

/**
 * What the page says about the documents, as the app treats them (issue 43 item 21): staff who
 * check identities see them, they are deleted `days` after the decision, and until then the
 * owner's data export holds a copy (decision 072; the export, decision 083's privacy page).
 */
export const documentsText = (days: number) =>
  `Only our staff who check identities can open your documents. We delete them ${days} days after our decision; until then, the data export in Profile → Privacy includes a copy for you.`;

/** Whole years from a YYYY-MM-DD birth date to `now` (UTC days). */
export function ageOn(dateOfBirth: string, now: Date): number {
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - year;
  const beforeBirthday =
    now.getUTCMonth() + 1 < month || (now.getUTCMonth() + 1 === month && now.getUTCDate() < day);
  if (beforeBirthday) age--;
  return age;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A date of birth in words, with the age it gives on `now`: "March 4, 1990 (36 years old)". */
export function dateOfBirthText(dateOfBirth: string, now: Date): string {
  if (!isCalendarDate(dateOfBirth)) return dateOfBirth;
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number];
  return `${MONTHS[month - 1]} ${day}, ${year} (${ageOn(dateOfBirth, now)} years old)`;
}

/** A submission as its customer sees it: never its images (decision 072). */
export const verificationSubmissionSchema = z.object({
  id: z.string(),
  level: z.number(),
  status: z.enum(SUBMISSION_STATUSES),
  documentType: z.string().nullable(),
  country: z.string(),
  reason: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type VerificationSubmission = z.infer<typeof verificationSubmissionSchema>;

export const limitValuesSchema = z.object({
  perCard: z.string(),
  perDay: z.string(),
  per30Days: z.string(),
});
export type LimitValues = z.infer<typeof limitValuesSchema>;

/** GET /api/verification. */
export const verificationStateSchema = z.object({
  level: z.number(),
  status: z.enum(VERIFICATION_STATUSES),
  limits: limitValuesSchema.extend({ usedDay: z.string(), used30Days: z.string() }),
  /** The limits each level gives, for the page that explains what verifying raises. */
  levels: z.array(limitValuesSchema.extend({ level: z.number() })),
  submissions: z.array(verificationSubmissionSchema),
  /** Days identity documents are kept after staff decide (VERIFICATION_DOCUMENT_RETENTION_DAYS). */
  documentRetentionDays: z.number(),
});
export type VerificationState = z.infer<typeof verificationStateSchema>;

/** A submission as staff see it: every detail, the image paths and the account. */
export const adminVerificationSchema = z.object({
  id: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  userFirstName: z.string().nullable(),
  userLastName: z.string().nullable(),
  userCreatedAt: z.string(),
  userVerificationLevel: z.number(),
  level: z.number(),
  status: z.enum(SUBMISSION_STATUSES),
  legalFirstName: z.string().nullable(),
  legalLastName: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  country: z.string(),
  documentType: z.string().nullable(),
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  postalCode: z.string().nullable(),
  documentImages: z.array(z.string()),
  selfieImage: z.string().nullable(),
  proofImages: z.array(z.string()),
  reason: z.string().nullable(),
  note: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  /** When the images were deleted (retention); the decision stays. */
  documentsDeletedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminVerification = z.infer<typeof adminVerificationSchema>;

export const adminVerificationListQuerySchema = z.object({
  status: z
    .enum(['all', ...SUBMISSION_STATUSES], {
      error: `status must be one of: all, ${SUBMISSION_STATUSES.join(', ')}`,
    })
    .optional()
    .default('pending'),
  cursor: z.string().max(200).optional(),
  limit: wholeNumberParam('limit', 1, 100).default(25),
});

export const VERIFICATION_NOTE_MAX_LENGTH = 500;

/** POST /api/admin/verifications/{id}/decision. */
export const verificationDecisionSchema = z
  .object({
    decision: z.enum(['approve', 'reject'], { error: 'decision must be approve or reject' }),
    reason: z
      .enum(VERIFICATION_REJECTION_REASONS, {
        error: `reason must be one of: ${VERIFICATION_REJECTION_REASONS.join(', ')}`,
      })
      .optional()
      .nullable(),
    note: z
      .string({ error: 'note must be text' })
      .trim()
      .max(
        VERIFICATION_NOTE_MAX_LENGTH,
        `note must be at most ${VERIFICATION_NOTE_MAX_LENGTH} characters`,
      )
      .optional()
      .nullable(),
  })
  .superRefine((value, ctx) => {
    if (value.decision === 'reject' && !value.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'A rejection needs a reason' });
    }
    if (value.decision === 'approve' && value.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'An approval takes no reason' });
    }
    if (value.reason === 'other' && !value.note) {
      ctx.addIssue({
        code: 'custom',
        path: ['note'],
        message: 'Say what is wrong in the note when the reason is Other',
      });
    }
  });

const LIMIT_MESSAGE = 'must be an amount from 0.01 to 99,999,999.99 with at most 2 decimals';
const limitAmount = (label: string) =>
  z
    .union([z.string(), z.number()], { error: `${label} ${LIMIT_MESSAGE}` })
    .transform((v) => String(v).trim())
    .refine(
      (v) => MONEY_PATTERN.test(v) && toCents(v) > 0 && toCents(v) <= MAX_MONEY_CENTS,
      `${label} ${LIMIT_MESSAGE}`,
    );

/** PUT /api/admin/limits/{level}: per card ≤ per day ≤ per 30 days. */
export const updateLimitsSchema = z
  .object({
    perCard: limitAmount('Per card'),
    perDay: limitAmount('Per 24 hours'),
    per30Days: limitAmount('Per 30 days'),
  })
  .superRefine((v, ctx) => {
    if (!MONEY_PATTERN.test(v.perCard) || !MONEY_PATTERN.test(v.perDay)) return;
    if (!MONEY_PATTERN.test(v.per30Days)) return;
    if (toCents(v.perCard) > toCents(v.perDay)) {
      ctx.addIssue({
        code: 'custom',
        path: ['perCard'],
        message: 'Per card cannot be more than per 24 hours',
      });
    }
    if (toCents(v.perDay) > toCents(v.per30Days)) {
      ctx.addIssue({
        code: 'custom',
        path: ['perDay'],
        message: 'Per 24 hours cannot be more than per 30 days',
      });
    }
  });

export const levelLimitsSchema = limitValuesSchema.extend({
  level: z.number(),
  updatedAt: z.string(),
});
export type LevelLimits = z.infer<typeof levelLimitsSchema>;

export const LIMIT_NAMES = ['perCard', 'perDay', 'per30Days'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];
export const LIMIT_PHRASES: Record<LimitName, string> = {
  perCard: 'per card',
  perDay: 'per 24 hours',
  per30Days: 'per 30 days',
};

export const VERIFY_NEXT: Record<number, string> = {
  1: 'Verify your identity',
  2: 'Verify your address',
};

/**
 * The card's value against the limits, given what was already submitted in the windows. Answers
 * null when it fits, or the first limit it passes with the sentence the customer reads, the
 * lowest level whose limits would let it through (null when none would), the limit's amount and
 * what was left of it (null for the per-card limit).
 */
export function limitRefusal(
  value: string,
  used: { usedDay: string; used30Days: string },
  level: number,
  byLevel: (LimitValues & { level: number })[],
): {
  limit: LimitName;
  requiredLevel: number | null;
  message: string;
  amount: string;
  left: string | null;
} | null {
  const cents = toCents(value);
  const over = (limits: LimitValues): LimitName | null => {
    if (cents > toCents(limits.perCard)) return 'perCard';
    if (toCents(used.usedDay) + cents > toCents(limits.perDay)) return 'perDay';
    if (toCents(used.used30Days) + cents > toCents(limits.per30Days)) return 'per30Days';
    return null;
  };
  const mine = byLevel.find((l) => l.level === level);
  if (!mine) return null;
  const limit = over(mine);
  if (!limit) return null;
  const higher = byLevel
    .filter((l) => l.level > level)
    .sort((a, b) => a.level - b.level)
    .find((l) => over(l) === null);
  const requiredLevel = higher?.level ?? null;
  const amount = formatMoney(mine[limit]);
  const usedSoFar = limit === 'perDay' ? used.usedDay : used.used30Days;
  const left =
    limit === 'perCard'
      ? null
      : formatMoney(fromCents(Math.max(0, toCents(mine[limit]) - toCents(usedSoFar))));
  const what =
    left === null
      ? `This card is over your limit of ${amount} per card.`
      : `This card would take you over your limit of ${amount} ${LIMIT_PHRASES[limit]} (${left} left).`;
  const how =
    requiredLevel !== null
      ? ` ${VERIFY_NEXT[requiredLevel] ?? 'Verify your account'} to raise your limit ${LIMIT_PHRASES[limit]} to ${formatMoney(higher![limit])}.`
      : ' Please contact support to sell more.';
  return { limit, requiredLevel, message: `${what}${how}`, amount, left };
}

/** 403 answer over a limit (API contract). */
export const LIMIT_REFUSAL_CODE = 'verification_required';
