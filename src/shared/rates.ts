import { MAX_MONEY_CENTS, MONEY_PATTERN, rateBasisPoints, toCents } from './money';

/**
 * The staff-managed brand terms as plain TypeScript, so the public pages quote without loading
 * zod; the API schemas are in rate-schemas.ts.
 */

/** The brand whose rate and minimum apply to every brand not on the list (spec section 9). */
export const OTHER_BRAND = 'Other';

/** The formats a rate tier names (issue 41): a card's own format, or any. */
export const TIER_FORMATS = ['physical', 'egift', 'any'] as const;
export type TierFormat = (typeof TIER_FORMATS)[number];
export const TIER_FORMAT_LABELS: Record<TierFormat, string> = {
  physical: 'Physical',
  egift: 'E-code',
  any: 'Any format',
};
/** A brand has at most this many tiers. */
export const MAX_TIERS = 20;

/**
 * A rate tier (decision 130): cards of `format` (or any) whose value is from `minValue` to
 * `maxValue` inclusive (open above when null) are bought at `rate`.
 */
export interface RateTier {
  format: TierFormat;
  minValue: string;
  maxValue: string | null;
  rate: string;
}

/** A brand's rate (fraction of face value, a decimal string), minimum card value and tiers. */
export interface BrandRate {
  brand: string;
  rate: string;
  minimum: string;
  tiers: RateTier[];
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

/** Whether a tier's band holds a card value (cents); both ends inclusive, an open top. */
const inBand = (tier: RateTier, cents: number) =>
  cents >= toCents(tier.minValue) && (tier.maxValue === null || cents <= toCents(tier.maxValue));

/**
 * The tier a card is bought at (decision 130): among the tiers whose band holds its value, one
 * for its own format wins over one for any format (tiers of one format never overlap, so at most
 * one of each matches). Null when none does: the brand rate applies.
 */
export function tierFor(
  terms: Pick<BrandRate, 'tiers'>,
  format: string | undefined,
  cardValue: string,
): RateTier | null {
  if (!MONEY_PATTERN.test(cardValue.trim())) return null;
  const cents = toCents(cardValue);
  const matching = terms.tiers.filter((t) => inBand(t, cents));
  return (
    matching.find((t) => t.format !== 'any' && t.format === format) ??
    matching.find((t) => t.format === 'any') ??
    null
  );
}

/** The rate a card of this format and value is bought at: its tier's, else the brand's. */
export function rateFor(terms: BrandRate, format: string | undefined, cardValue: string): string {
  return tierFor(terms, format, cardValue)?.rate ?? terms.rate;
}

/**
 * The most a brand pays for some card: its rate, or a tier's when one pays more (the landing
 * page's "up to").
 */
export function bestRate(terms: Pick<BrandRate, 'rate' | 'tiers'>): string {
  return terms.tiers.reduce(
    (best, tier) => (rateBasisPoints(tier.rate) > rateBasisPoints(best) ? tier.rate : best),
    terms.rate,
  );
}

/**
 * The listed brands ("Other" is not one), best first by the most each pays for some card (its
 * `best`): a tier may pay more than the brand's rate. Ties keep the table's order.
 */
export function byBestRate(rates: readonly BrandRate[]): (BrandRate & { best: string })[] {
  return rates
    .filter((r) => r.brand !== OTHER_BRAND)
    .map((terms) => ({ ...terms, best: bestRate(terms) }))
    .sort((a, b) => rateBasisPoints(b.best) - rateBasisPoints(a.best));
}

const dollars = (value: string) => {
  const cents = toCents(value);
  const whole = `$${Math.floor(cents / 100).toLocaleString('en-US')}`;
  return cents % 100 === 0 ? whole : `${whole}.${String(cents % 100).padStart(2, '0')}`;
};

/** "91%" or "87.5%" from "0.91" or "0.875", in integer basis points (never a float product). */
export function rateAsPercent(rate: string): string {
  const [whole, fraction = ''] = rate.trim().split('.');
  const bp = Number(whole) * 10_000 + Number(fraction.padEnd(4, '0').slice(0, 4));
  const cents = bp % 100;
  return `${Math.floor(bp / 100)}${cents === 0 ? '' : `.${String(cents).padStart(2, '0').replace(/0$/, '')}`}%`;
}

/** A tier as the quote shows it: "E-code, $100–$499: 82%", "Physical, $500 and up: 90%". */
export function tierLabel(tier: RateTier): string {
  const band =
    tier.maxValue === null
      ? `${dollars(tier.minValue)} and up`
      : `${dollars(tier.minValue)}–${dollars(tier.maxValue)}`;
  return `${TIER_FORMAT_LABELS[tier.format]}, ${band}: ${rateAsPercent(tier.rate)}`;
}

export const TIER_BAND_MESSAGE = 'The highest value must be empty or at least the lowest';
export const TIER_OVERLAP_MESSAGE = 'Two tiers of the same format cover the same values';

/** What is wrong with a brand's tiers as a whole: a band upside down, or two that overlap. */
export function tiersProblem(tiers: readonly RateTier[]): string | undefined {
  for (const t of tiers) {
    if (t.maxValue !== null && toCents(t.maxValue) < toCents(t.minValue)) return TIER_BAND_MESSAGE;
  }
  for (let i = 0; i < tiers.length; i++) {
    for (let j = i + 1; j < tiers.length; j++) {
      const a = tiers[i]!;
      const b = tiers[j]!;
      if (a.format !== b.format) continue;
      const aTop = a.maxValue === null ? Number.POSITIVE_INFINITY : toCents(a.maxValue);
      const bTop = b.maxValue === null ? Number.POSITIVE_INFINITY : toCents(b.maxValue);
      if (toCents(a.minValue) <= bTop && toCents(b.minValue) <= aTop) return TIER_OVERLAP_MESSAGE;
    }
  }
  return undefined;
}
