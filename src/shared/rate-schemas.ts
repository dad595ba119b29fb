import { z } from 'zod';
import {
  BRAND_NAME_MESSAGE,
  MINIMUM_MESSAGE,
  minimumProblem,
  OTHER_BRAND,
  RATE_MESSAGE,
  rateProblem,
} from './rates';

/** The API schemas of the staff-managed rates (the plain rules are in rates.ts). */
export const brandRateSchema = z.object({
  brand: z.string(),
  rate: z.string(),
  minimum: z.string(),
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

/** PUT /api/admin/rates/:brand: a new rate and/or minimum, or retiring (or restoring) the brand. */
export const updateRateSchema = z
  .object({
    rate: rateField.optional(),
    minimum: minimumField.optional(),
    retired: z.boolean({ error: 'retired must be true or false' }).optional(),
  })
  .refine((v) => v.rate !== undefined || v.minimum !== undefined || v.retired !== undefined, {
    message: 'Change the rate, the minimum, or whether the brand is retired',
    path: ['rate'],
  });

export const rateChangeSchema = z.object({
  id: z.string(),
  brand: z.string(),
  action: z.string(),
  actorEmail: z.string(),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  createdAt: z.string(),
});
