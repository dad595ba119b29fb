import { z } from 'zod';
import { brandRate, OTHER_BRAND } from './brands';
import { expectedPayout, MAX_MONEY_CENTS, MONEY_PATTERN, toCents } from './money';

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

const LOW_MINIMUM_BRANDS = new Set(['iTunes', 'Amazon', 'Xbox', 'Walmart']);

/** Minimum card value: 25 for iTunes, Amazon, Xbox and Walmart, 50 for all others. */
export function minimumValue(cardType: string): number {
  return LOW_MINIMUM_BRANDS.has(cardType) ? 25 : 50;
}

export const minimumMessage = (cardType: string) =>
  `Minimum value for this card type is $${minimumValue(cardType)}`;

/** The rate and expected payout quoted for a card (the server stores both at submission). */
export function quote(cardType: string, cardValue: string) {
  const rate = brandRate(cardType);
  return { rate, expectedPayout: expectedPayout(cardValue, rate) };
}

/**
 * Checks a card value for a brand. Returns the spec's message, or null when the value is fine.
 */
export function cardValueProblem(cardType: string, value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '' || !/^\d+(\.\d+)?$/.test(trimmed)) return 'Card value is required';
  if (!MONEY_PATTERN.test(trimmed)) {
    return /\.\d{3,}$/.test(trimmed)
      ? 'Card value can have at most 2 decimal places'
      : 'Card value is too large';
  }
  if (toCents(trimmed) > MAX_MONEY_CENTS) return 'Card value is too large';
  if (cardType && toCents(trimmed) < minimumValue(cardType) * 100) return minimumMessage(cardType);
  return null;
}

const requiredText = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `${message.replace(' is required', '')} is too long`);

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
    const problem = cardValueProblem(input.cardType, input.cardValue);
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
}

/**
 * Every problem of the upload form at once, by field, with the spec's messages: an empty first
 * submit names each missing field, and a low value shows its minimum as soon as the brand is
 * known, whatever else is still missing. Plain TypeScript, so the form needs no zod.
 */
export function uploadFormProblems(values: UploadFormValues) {
  const problems: Partial<Record<keyof UploadFormValues, string>> = {};
  const isOther = values.cardType === OTHER_BRAND;
  if (!values.cardType) problems.cardType = 'Card type is required';
  if (isOther && values.customCardType.trim() === '') {
    problems.customCardType = 'Please specify the gift card type';
  } else if (values.customCardType.length > 120) {
    problems.customCardType = 'Card type is too long';
  }
  const value = cardValueProblem(effectiveCardType(values), values.cardValue);
  if (value) problems.cardValue = value;
  if (!values.cardCondition || !CARD_CONDITIONS.includes(values.cardCondition)) {
    problems.cardCondition = 'Card condition is required';
  }
  if (!values.cardFormat || !CARD_FORMATS.includes(values.cardFormat)) {
    problems.cardFormat = 'Card format is required';
  }
  if (!values.paymentMethodId) problems.paymentMethodId = 'Payment method is required';
  if (values.notes.length > 2000) problems.notes = 'Notes are too long';
  return problems;
}

/** The card type the API receives: the custom text when Other was chosen. */
export const effectiveCardType = (values: Pick<UploadFormValues, 'cardType' | 'customCardType'>) =>
  values.cardType === OTHER_BRAND ? values.customCardType.trim() : values.cardType;
