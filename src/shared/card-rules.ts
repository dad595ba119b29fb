import { z } from 'zod';
import { SCAM_CHECK_ANSWERS } from './fair-dealing';
import { expectedPayout, formatMoney, MAX_MONEY_CENTS, MONEY_PATTERN, toCents } from './money';
import { OTHER_BRAND } from './rates';

export const CARD_CONDITIONS = ['brand_new', 'partially_used'] as const;
export const CARD_FORMATS = ['physical', 'egift'] as const;
export type CardFormat = (typeof CARD_FORMATS)[number];
export const CARD_CONDITION_LABELS: Record<(typeof CARD_CONDITIONS)[number], string> = {
  brand_new: 'Brand New',
  partially_used: 'Partially Used',
};
export const CARD_FORMAT_LABELS: Record<(typeof CARD_FORMATS)[number], string> = {
  physical: 'Physical',
  egift: 'E-Gift',
};

/** Underscores shown as spaces (spec section 2, Review dialog): "brand_new" -> "brand new". */
export const humanize = (value: string) => value.replaceAll('_', ' ');

export const MAX_IMAGES_PER_CARD = 10;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** "$25" for 25.00, "$12.50" otherwise: a minimum as the spec's message writes it. */
export const minimumAmount = (minimum: string) => formatMoney(minimum).replace(/\.00$/, '');

/** The spec's message: 'Minimum value for this card type is $25' (or $50, or what staff set). */
export const minimumMessage = (minimum: string) =>
  `Minimum value for this card type is ${minimumAmount(minimum)}`;

/** The expected payout of a card at `rate` (the server stores both at submission). */
export function quote(rate: string, cardValue: string) {
  return { rate, expectedPayout: expectedPayout(cardValue, rate) };
}

/**
 * Checks a card value, and its brand's minimum when known (the brands' terms are staff-managed:
 * GET /api/rates). Returns the spec's message, or null when the value is fine.
 */
export function cardValueProblem(value: string, minimum?: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '' || !/^\d+(\.\d+)?$/.test(trimmed)) return 'Card value is required';
  if (!MONEY_PATTERN.test(trimmed)) {
    return /\.\d{3,}$/.test(trimmed)
      ? 'Card value can have at most 2 decimal places'
      : 'Card value is too large';
  }
  if (toCents(trimmed) > MAX_MONEY_CENTS) return 'Card value is too large';
  if (minimum && toCents(trimmed) < toCents(minimum)) return minimumMessage(minimum);
  return null;
}

const requiredText = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `${message.replace(' is required', '')} is too long`);

/** An e-gift card's code or PIN (issue 24, decision 082): optional, at most this long. */
export const CARD_CODE_MAX_LENGTH = 64;
export const CARD_CODE_TOO_LONG = `Card code / PIN must be at most ${CARD_CODE_MAX_LENGTH} characters`;

/**
 * The code as it is compared: letters upper-cased, spaces and dashes dropped, so
 * "abcd-efgh 1234" and "ABCDEFGH1234" are the same code.
 */
export const normaliseCardCode = (code: string) => code.replace(/[\s-]+/g, '').toUpperCase();

/**
 * What lists and the customer's own screens show of a code: its last 4 characters, or none
 * when the code is so short that 4 characters would be most of it.
 */
export const cardCodeLast4 = (code: string) => {
  const normal = normaliseCardCode(code);
  return normal.length >= 8 ? normal.slice(-4) : '';
};

/** A stored code as lists and its seller see it: "••••1234", or "••••" for a short one. */
export const maskedCardCode = (last4: string) => `••••${last4}`;

/** POST /api/transactions (spec section 7): cardType is the custom text when Other was chosen. */
export const createTransactionSchema = z
  .object({
    cardType: requiredText('Card type is required', 120),
    cardValue: z
      .union([z.string(), z.number()], { error: 'Card value is required' })
      .transform(String),
    cardCondition: z.enum(CARD_CONDITIONS, { error: 'Card condition is required' }),
    cardFormat: z.enum(CARD_FORMATS, { error: 'Card format is required' }),
    paymentMethodId: z.uuid({ error: 'Payment method is required' }),
    imageUrls: z
      .array(z.string().max(200), { error: 'Please upload at least one gift card image' })
      .min(1, 'Please upload at least one gift card image')
      .max(MAX_IMAGES_PER_CARD, `Upload at most ${MAX_IMAGES_PER_CARD} images per card`),
    notes: z.string().trim().max(2000, 'Notes are too long').nullish(),
    /** The card's code or PIN, sealed at rest; empty counts as none. */
    cardCode: z
      .string({ error: 'Card code / PIN must be text' })
      .trim()
      .max(CARD_CODE_MAX_LENGTH, CARD_CODE_TOO_LONG)
      .nullish()
      .transform((code) => (code && normaliseCardCode(code) ? code : null)),
    /**
     * The rate the form showed. When the brand's rate changed since, the server answers 409
     * rather than buy the card at a rate the customer did not see.
     */
    quotedRate: z
      .union([z.string(), z.number()], { error: 'quotedRate must be a rate such as 0.91' })
      .transform((v) => String(v).trim())
      .refine(
        (v) => /^(0?\.\d{1,4}|1(\.0{1,4})?)$/.test(v),
        'quotedRate must be a rate such as 0.91',
      )
      .optional(),
    /**
     * The scam question's answer (decision 073): 'yes' is refused with 422; absent is accepted,
     * so older clients keep working, and staff see that it was not asked.
     */
    scamCheck: z.enum(SCAM_CHECK_ANSWERS, { error: "scamCheck must be 'no' or 'yes'" }).optional(),
  })
  .superRefine((input, ctx) => {
    if (input.cardType === OTHER_BRAND) {
      ctx.addIssue({
        code: 'custom',
        path: ['cardType'],
        message: 'Please specify the gift card type',
      });
      return;
    }
    // The brand's minimum is checked by the server against the current terms.
    const problem = cardValueProblem(input.cardValue);
    if (problem) ctx.addIssue({ code: 'custom', path: ['cardValue'], message: problem });
  });

/** The upload form's values (spec section 5): the brand list's Other asks for the custom type. */
export interface UploadFormValues {
  cardType: string;
  customCardType: string;
  cardValue: string;
  cardCondition: (typeof CARD_CONDITIONS)[number] | undefined;
  cardFormat: (typeof CARD_FORMATS)[number] | undefined;
  paymentMethodId: string;
  notes: string;
  /** The e-gift card's code or PIN (optional). */
  cardCode: string;
}

/**
 * Every problem of the upload form at once, by field, with the spec's messages: an empty first
 * submit names each missing field, and a low value shows its minimum as soon as the brand is
 * known, whatever else is still missing. Plain TypeScript, so the form needs no zod.
 */
export function uploadFormProblems(
  values: UploadFormValues,
  minimumOf: (cardType: string) => string | undefined,
) {
  const problems: Partial<Record<keyof UploadFormValues, string>> = {};
  const isOther = values.cardType === OTHER_BRAND;
  if (!values.cardType) problems.cardType = 'Card type is required';
  if (isOther && values.customCardType.trim() === '') {
    problems.customCardType = 'Please specify the gift card type';
  } else if (values.customCardType.length > 120) {
    problems.customCardType = 'Card type is too long';
  }
  const type = effectiveCardType(values);
  const value = cardValueProblem(values.cardValue, type ? minimumOf(type) : undefined);
  if (value) problems.cardValue = value;
  if (!values.cardCondition || !CARD_CONDITIONS.includes(values.cardCondition)) {
    problems.cardCondition = 'Card condition is required';
  }
  if (!values.cardFormat || !CARD_FORMATS.includes(values.cardFormat)) {
    problems.cardFormat = 'Card format is required';
  }
  if (!values.paymentMethodId) problems.paymentMethodId = 'Payment method is required';
  if (values.notes.length > 2000) problems.notes = 'Notes are too long';
  if (values.cardCode.trim().length > CARD_CODE_MAX_LENGTH) problems.cardCode = CARD_CODE_TOO_LONG;
  return problems;
}

/** The card type the API receives: the custom text when Other was chosen. */
export const effectiveCardType = (values: Pick<UploadFormValues, 'cardType' | 'customCardType'>) =>
  values.cardType === OTHER_BRAND ? values.customCardType.trim() : values.cardType;
