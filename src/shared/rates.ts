import { MAX_MONEY_CENTS, MONEY_PATTERN, toCents } from './money';

/**
 * The staff-managed brand terms as plain TypeScript, so the public pages quote without loading
 * zod; the API schemas are in rate-schemas.ts.
 */

/** The brand whose rate and minimum apply to every brand not on the list (spec section 9). */
export const OTHER_BRAND = 'Other';

/** A brand's rate (fraction of face value, a decimal string) and minimum card value. */
export interface BrandRate {
  brand: string;
  rate: string;
  minimum: string;
}

/** A brand as staff manage it: retired ones too. */
export interface AdminBrandRate extends BrandRate {
  id: string;
  retired: boolean;
  updatedAt: string;
}

/** One change of GET /api/admin/rates/history: who changed which brand, from what to what. */
export interface RateChange {
  id: string;
  brand: string;
  action: string;
  actorEmail: string;
  changes: Record<string, { from: unknown; to: unknown }>;
  createdAt: string;
}

export const RATE_MESSAGE = 'Rate must be between 0.01 and 1.00 (at most 4 decimals)';
export const MINIMUM_MESSAGE = 'Minimum must be an amount from 1.00 with at most 2 decimals';
export const BRAND_NAME_MESSAGE = 'Brand name is required';

/** A rate as staff type it ("0.91", ".9", 0.885): 0.01 to 1, at most 4 decimals. */
export function rateProblem(value: string): string | undefined {
  const v = value.trim();
  if (!/^(0?\.\d{1,4}|1(\.0{1,4})?|0)$/.test(v)) return RATE_MESSAGE;
  return Number(v) >= 0.01 && Number(v) <= 1 ? undefined : RATE_MESSAGE;
}

export function minimumProblem(value: string): string | undefined {
  const v = value.trim();
  if (!MONEY_PATTERN.test(v)) return MINIMUM_MESSAGE;
  const cents = toCents(v);
  return cents >= 100 && cents <= MAX_MONEY_CENTS ? undefined : MINIMUM_MESSAGE;
}

/**
 * The terms for a card type among the brands bought today: its own when listed (any case),
 * else Other's. Undefined only while the list has not loaded.
 */
export function termsFor(rates: readonly BrandRate[], cardType: string): BrandRate | undefined {
  const wanted = cardType.trim().toLowerCase();
  return (
    rates.find((r) => r.brand.toLowerCase() === wanted) ??
    rates.find((r) => r.brand === OTHER_BRAND)
  );
}
