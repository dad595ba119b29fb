import { z } from 'zod';
import { brandRate, OTHER_BRAND } from './brands';
import { expectedPayout, MAX_MONEY_CENTS, MONEY_PATTERN, toCents } from './money';

export const CARD_CONDITIONS = ['brand_new', 'partially_used'] as const;
export const CARD_FORMATS = ['physical', 'egift'] as const;
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

/** The upload form (spec section 5): the brand list's Other asks for the custom type. */
export const uploadFormSchema = z
  .object({
    cardType: z.string().min(1, 'Card type is required'),
    customCardType: z.string().max(120, 'Card type is too long'),
    cardValue: z.string(),
    cardCondition: z.enum(CARD_CONDITIONS, { error: 'Card condition is required' }),
    cardFormat: z.enum(CARD_FORMATS, { error: 'Card format is required' }),
    paymentMethodId: z.string().min(1, 'Payment method is required'),
    notes: z.string().max(2000, 'Notes are too long'),
  })
  .superRefine((input, ctx) => {
    const isOther = input.cardType === OTHER_BRAND;
    if (isOther && input.customCardType.trim() === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['customCardType'],
        message: 'Please specify the gift card type',
      });
    }
    const problem = cardValueProblem(
      isOther ? input.customCardType.trim() : input.cardType,
      input.cardValue,
    );
    if (problem) ctx.addIssue({ code: 'custom', path: ['cardValue'], message: problem });
  });
export type UploadFormValues = z.input<typeof uploadFormSchema>;

/** The card type the API receives: the custom text when Other was chosen. */
export const effectiveCardType = (values: Pick<UploadFormValues, 'cardType' | 'customCardType'>) =>
  values.cardType === OTHER_BRAND ? values.customCardType.trim() : values.cardType;
