import { z } from 'zod';
import { MAX_MONEY_CENTS, MONEY_PATTERN, toCents } from './money';

/**
 * Fair dealing (decision 073): revised offers by consent, appeals of rejections, review times
 * sellers can see, a card's timeline and the scam question. The rules both sides check.
 */

/** A revised offer waits this long for the customer's answer by default (OFFER_EXPIRY_HOURS). */
export const DEFAULT_OFFER_EXPIRY_HOURS = 72;
/** Staff's target time from submission to a first decision by default (REVIEW_TARGET_MINUTES). */
export const DEFAULT_REVIEW_TARGET_MINUTES = 120;

export const OFFER_STATUSES = ['pending', 'accepted', 'declined', 'expired'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/** The revised offer on a card, as customer and staff answers carry it (null when none). */
export const offerSchema = z.object({
  /** The balance staff found on the card. */
  verifiedValue: z.string(),
  /** What the customer is offered: verifiedValue × the card's own payoutRate. */
  amount: z.string(),
  status: z.enum(OFFER_STATUSES),
  expiresAt: z.string(),
  note: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type Offer = z.infer<typeof offerSchema>;

export const OFFER_NOTE_MAX_LENGTH = 500;
const VERIFIED_VALUE_MESSAGE = 'Verified value must be an amount such as 40.00, more than 0';

/** POST /api/admin/transactions/{id}/offer. */
export const OVER_VALUE_REASON_MAX_LENGTH = 500;

/** An owner's reason to pay or offer more than the card's value × its rate (decision 106). */
export const overValueReasonSchema = z
  .string({ error: 'The reason must be text' })
  .trim()
  .max(
    OVER_VALUE_REASON_MAX_LENGTH,
    `The reason must be at most ${OVER_VALUE_REASON_MAX_LENGTH} characters`,
  )
  .optional()
  .transform((v) => v || undefined);

export const makeOfferSchema = z.object({
  verifiedValue: z
    .union([z.string(), z.number()], { error: VERIFIED_VALUE_MESSAGE })
    .transform((v) => String(v).trim())
    .refine(
      (v) => MONEY_PATTERN.test(v) && toCents(v) > 0 && toCents(v) <= MAX_MONEY_CENTS,
      VERIFIED_VALUE_MESSAGE,
    ),
  note: z
    .string({ error: 'Note is required: tell the customer what you found' })
    .trim()
    .min(1, 'Note is required: tell the customer what you found')
    .max(OFFER_NOTE_MAX_LENGTH, `Note must be at most ${OFFER_NOTE_MAX_LENGTH} characters`),
  overValueReason: overValueReasonSchema,
});
export type MakeOfferInput = z.input<typeof makeOfferSchema>;

/** 201 of POST /api/admin/transactions/{id}/offer. */
export const offerCreatedSchema = z.object({ offer: offerSchema });

export const OFFER_PENDING = "Waiting for the customer's answer to the revised offer";
export const OFFER_NOT_PENDING = 'This card has no revised offer waiting for an answer';
export const OFFER_EXPIRED = 'This offer has expired';
export const BELOW_QUOTE =
  'The payment amount cannot be below the quoted payout. Make a revised offer for the customer to accept instead.';

// --- Appeals ---

export const APPEAL_STATUSES = ['pending', 'upheld', 'overturned'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];
export const APPEAL_WINDOW_DAYS = 14;
export const APPEAL_MESSAGE_MAX_LENGTH = 2000;
export const APPEAL_MAX_IMAGES = 4;
export const APPEAL_NOTE_MAX_LENGTH = 2000;

export const appealSchema = z.object({
  status: z.enum(APPEAL_STATUSES),
  message: z.string(),
  imageUrls: z.array(z.string()),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  note: z.string().nullable(),
});
export type Appeal = z.infer<typeof appealSchema>;

/** POST /api/transactions/{id}/appeal. */
export const createAppealSchema = z.object({
  message: z
    .string({ error: 'Message is required: tell us why the card should be looked at again' })
    .trim()
    .min(1, 'Message is required: tell us why the card should be looked at again')
    .max(
      APPEAL_MESSAGE_MAX_LENGTH,
      `Message must be at most ${APPEAL_MESSAGE_MAX_LENGTH.toLocaleString('en-US')} characters`,
    ),
  imageUrls: z
    .array(z.string().max(200), { error: 'imageUrls must be a list of uploaded images' })
    .max(APPEAL_MAX_IMAGES, `Add at most ${APPEAL_MAX_IMAGES} photos`)
    .optional()
    .default([]),
});
export type CreateAppealInput = z.input<typeof createAppealSchema>;

export const APPEAL_NOTE_REQUIRED = 'A note is required when the rejection is upheld';

/** POST /api/admin/transactions/{id}/appeal/decision. */
export const appealDecisionSchema = z
  .object({
    decision: z.enum(['upheld', 'overturned'], {
      error: 'Decision must be one of: upheld, overturned',
    }),
    note: z
      .string({ error: 'Note must be text' })
      .trim()
      .max(
        APPEAL_NOTE_MAX_LENGTH,
        `Note must be at most ${APPEAL_NOTE_MAX_LENGTH.toLocaleString('en-US')} characters`,
      )
      .nullish()
      .transform((v) => v || null),
  })
  .superRefine((input, ctx) => {
    if (input.decision === 'upheld' && !input.note) {
      ctx.addIssue({ code: 'custom', path: ['note'], message: APPEAL_NOTE_REQUIRED });
    }
  });
export type AppealDecisionInput = z.input<typeof appealDecisionSchema>;

export const APPEAL_NOT_REJECTED = 'Only a rejected card can be appealed';
/** A paid card is appealed for money taken back from it (decision 094). */
export const APPEAL_NOTHING_TAKEN_BACK =
  'A paid card can be appealed for money taken back from it, within 14 days and before any of it is set against a payout';
export const APPEAL_ALREADY_MADE = 'This card has already been appealed; the decision is final';
export const APPEAL_WINDOW_CLOSED = `A rejection can be appealed within ${APPEAL_WINDOW_DAYS} days`;
export const APPEAL_NOT_PENDING = 'This card has no appeal waiting for a decision';

/** Whether a card may be appealed at `now` (ms): rejected, never appealed, within the window. */
export function canAppeal(
  card: { status: string; appeal: unknown; rejectedAt?: string | null },
  now: number,
): boolean {
  if (card.status !== 'rejected' || card.appeal) return false;
  if (!card.rejectedAt) return false;
  return now - new Date(card.rejectedAt).getTime() <= APPEAL_WINDOW_DAYS * 24 * 60 * 60 * 1000;
}

// --- Review times ---

/** The statistics of one group of decisions: null minutes when there were none. */
export const reviewTimeSchema = z.object({
  medianMinutes: z.number().nullable(),
  sample: z.number(),
});
/** A brand's own median counts from this many decisions in the window. */
export const BRAND_MIN_SAMPLE = 20;
export const REVIEW_WINDOW_DAYS = 7;

/** GET /api/review-times. */
export const reviewTimesSchema = z.object({
  overall: reviewTimeSchema,
  brands: z.record(z.string(), reviewTimeSchema),
  targetMinutes: z.number(),
  /**
   * Time to payment (issue 41, decision 150): the median minutes from submission to the payment
   * sent, over the cards paid in the same 7 days, overall and per brand from 20 of them.
   */
  payment: z.object({
    overall: reviewTimeSchema,
    brands: z.record(z.string(), reviewTimeSchema),
  }),
});
export type ReviewTimes = z.infer<typeof reviewTimesSchema>;

/** GET /api/admin/review-summary: the pending cards that waited past the target, and appeals. */
export const reviewSummarySchema = z.object({
  overTarget: z.number(),
  targetMinutes: z.number(),
  /** Appeals waiting for a decision: staff see the count on the queue's Appeals filter. */
  appealsPending: z.number(),
});
export type ReviewSummary = z.infer<typeof reviewSummarySchema>;

// --- Timeline ---

export const TIMELINE_STEPS = [
  'submitted',
  'in_review',
  'offer_made',
  'offer_accepted',
  'offer_declined',
  'offer_expired',
  'approved',
  'payout_queued',
  'payment_sent',
  'payment_confirmed',
  'payout_failed',
  'rejected',
  'appealed',
  'appeal_decided',
  'withdrawn',
] as const;
export type TimelineStep = (typeof TIMELINE_STEPS)[number];

/** One step of GET /api/transactions/{id}/timeline; `by` (who did it) in staff's answer only. */
export const timelineEntrySchema = z.object({
  step: z.enum(TIMELINE_STEPS),
  at: z.string(),
  detail: z.string().optional(),
  by: z.string().optional(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

// --- The scam question ---

export const SCAM_CHECK_ANSWERS = ['no', 'yes'] as const;
export const SCAM_QUESTION =
  "Did someone you don't know ask you to buy this card to pay them (a debt, taxes, a prize, tech support, a romance)?";
export const SCAM_REFUSED =
  'We cannot buy this card: someone asking you to pay them with gift cards is a scam. Keep the card and its receipt, and contact the card’s brand and the FTC (reportfraud.ftc.gov).';
export const FTC_GIFT_CARD_ADVICE_URL =
  'https://consumer.ftc.gov/articles/avoiding-and-reporting-gift-card-scams';
