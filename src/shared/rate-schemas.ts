import { z } from 'zod';
import { fromCents, MONEY_PATTERN, toCents } from './money';
import {
  BRAND_NAME_MESSAGE,
  MAX_TIERS,
  MINIMUM_MESSAGE,
  minimumProblem,
  OTHER_BRAND,
  RATE_MESSAGE,
  rateProblem,
  TIER_FORMATS,
  tiersProblem,
} from './rates';

/** A brand's rate tier as answered (decision 130). */
export const rateTierSchema = z.object({
  format: z.enum(TIER_FORMATS),
  minValue: z.string(),
  maxValue: z.string().nullable(),
  rate: z.string(),
});

/** The API schemas of the staff-managed rates (the plain rules are in rates.ts). */
export const brandRateSchema = z.object({
  brand: z.string(),
  rate: z.string(),
  minimum: z.string(),
  tiers: z.array(rateTierSchema),
});

/** GET /api/rates: the brands bought today, highest rate first, Other last. */
export const rateListSchema = z.array(brandRateSchema);

/** GET /api/admin/rates: every brand, retired ones too. */
export const adminBrandRateSchema = brandRateSchema.extend({
  id: z.string(),
  retired: z.boolean(),
  updatedAt: z.string(),
});

const rateField = z
  .union([z.string(), z.number()], { error: RATE_MESSAGE })
  .transform((v) => String(v).trim())
  .refine((v) => !rateProblem(v), RATE_MESSAGE);
const minimumField = z
  .union([z.string(), z.number()], { error: MINIMUM_MESSAGE })
  .transform((v) => String(v).trim())
  .refine((v) => !minimumProblem(v), MINIMUM_MESSAGE);

/** POST /api/admin/rates: a brand not on the list yet (or one retired, back with new terms). */
export const createRateSchema = z.object({
  brand: z
    .string({ error: BRAND_NAME_MESSAGE })
    .trim()
    .min(1, BRAND_NAME_MESSAGE)
    .max(120, 'Brand name is too long')
    .refine((v) => v.toLowerCase() !== OTHER_BRAND.toLowerCase(), 'Other is always on the list'),
  rate: rateField,
  minimum: minimumField,
});

const TIER_VALUE_MESSAGE = 'A tier value must be an amount with at most 2 decimals';
const tierValueField = z
  .union([z.string(), z.number()], { error: TIER_VALUE_MESSAGE })
  .transform((v) => String(v).trim())
  // Aborting: the amount is not made (toCents would throw on it) when it is not one.
  .refine((v) => MONEY_PATTERN.test(v), { message: TIER_VALUE_MESSAGE, abort: true })
  .transform((v) => fromCents(toCents(v)));

const isAmount = (v: unknown) => typeof v === 'string' && MONEY_PATTERN.test(v);

/** One tier as staff send it: its format, its band and its rate. */
export const tierInputSchema = z.object({
  format: z.enum(TIER_FORMATS, { error: 'Format must be physical, egift or any' }),
  minValue: tierValueField,
  maxValue: tierValueField.nullable(),
  rate: rateField,
});

/** A brand's whole set of tiers: at most MAX_TIERS, bands right side up, none overlapping. */
export const tiersInputSchema = z
  .array(tierInputSchema, { error: 'Tiers must be a list' })
  .max(MAX_TIERS, `At most ${MAX_TIERS} tiers`)
  .superRefine((tiers, ctx) => {
    // A tier already refused for its own fields has no band to compare.
    if (!tiers.every((t) => isAmount(t.minValue) && (t.maxValue === null || isAmount(t.maxValue))))
      return;
    const problem = tiersProblem(tiers);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * PUT /api/admin/rates/:brand: a new rate and/or minimum, retiring (or restoring) the brand, or
 * its tiers replaced whole (an empty list removes them).
 */
export const updateRateSchema = z
  .object({
    rate: rateField.optional(),
    minimum: minimumField.optional(),
    retired: z.boolean({ error: 'retired must be true or false' }).optional(),
    tiers: tiersInputSchema.optional(),
  })
  .refine(
    (v) =>
      v.rate !== undefined ||
      v.minimum !== undefined ||
      v.retired !== undefined ||
      v.tiers !== undefined,
    {
      message: 'Change the rate, the minimum, the tiers, or whether the brand is retired',
      path: ['rate'],
    },
  );

export const rateChangeSchema = z.object({
  id: z.string(),
  brand: z.string(),
  action: z.string(),
  actorEmail: z.string(),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  createdAt: z.string(),
});

/** A seller has at most this many rate alerts (issue 41). */
export const MAX_RATE_ALERTS = 20;

/** POST /api/rate-alerts: tell me when the brand's rate (for a format) is at least minRate. */
export const createRateAlertSchema = z.object({
  brand: z
    .string({ error: BRAND_NAME_MESSAGE })
    .trim()
    .min(1, BRAND_NAME_MESSAGE)
    .max(120, 'Brand name is too long'),
  format: z.enum(['physical', 'egift'], { error: 'Format must be physical or egift' }).nullish(),
  minRate: rateField,
});

/** A rate alert as answered (GET /api/rate-alerts). */
export const rateAlertSchema = z.object({
  id: z.string(),
  brand: z.string(),
  format: z.string().nullable(),
  minRate: z.string(),
  createdAt: z.string(),
});
export type RateAlert = z.infer<typeof rateAlertSchema>;
