import { z } from 'zod';
import { fromCents, MONEY_PATTERN, toCents } from './money';

/**
 * Instant decisions for trusted sellers (issue 41, decision 131): the owner's policy, the rules a
 * card must meet to be approved at once with no person, and the sampled after-review.
 */

/** The rules, in the order they are checked; each names what must hold. */
export const INSTANT_RULES = [
  'switched_on',
  'verification_level',
  'completed_cards',
  'clean_history',
  'card_value',
  'brand_listed',
  'checks_clean',
  'daily_total',
] as const;
export type InstantRule = (typeof INSTANT_RULES)[number];

/** What staff read for a rule that held, or (with "not") one that did not. */
export const INSTANT_RULE_LABELS: Record<InstantRule, string> = {
  switched_on: 'Instant decisions are switched on',
  verification_level: 'Verification level is high enough',
  completed_cards: 'Enough completed cards',
  clean_history: 'No fraud rejection, clawback or lost appeal in 90 days',
  card_value: 'Card value within the instant limit',
  brand_listed: 'Brand is on the instant list',
  checks_clean: 'Every automated check clean, no scam-check refusal',
  daily_total: 'Instant approvals in 24 hours within the daily total',
};

/** Why a card waited for a person, as staff read it. */
export const INSTANT_REFUSAL_LABELS: Record<InstantRule, string> = {
  switched_on: 'Instant decisions are switched off',
  verification_level: 'Verification level below the policy’s',
  completed_cards: 'Fewer completed cards than the policy asks',
  clean_history: 'A fraud rejection, clawback or lost appeal in the last 90 days',
  card_value: 'Card value above the instant limit',
  brand_listed: 'Brand not on the instant list',
  checks_clean: 'An automated check flagged the card, or a scam-check refusal',
  daily_total: 'Would pass the daily total of instant approvals',
};

export const instantRuleLabel = (rule: string, held: boolean) =>
  (held ? INSTANT_RULE_LABELS : INSTANT_REFUSAL_LABELS)[rule as InstantRule] ?? rule;

/** A seller's history is clean when nothing bad happened in this many days. */
export const CLEAN_HISTORY_DAYS = 90;

/** GET/PUT /api/admin/instant-decisions. Money as decimal strings, the sample rate a number. */
export const instantPolicySchema = z.object({
  enabled: z.boolean(),
  minLevel: z.number(),
  minCompletedCards: z.number(),
  maxCardValue: z.string(),
  maxDailyTotal: z.string(),
  brands: z.array(z.string()),
  sampleRate: z.number(),
});
export type InstantPolicy = z.infer<typeof instantPolicySchema>;

const MONEY_MESSAGE = 'An amount from 0.00 with at most 2 decimals';
const moneyInput = z
  .union([z.string(), z.number()], { error: MONEY_MESSAGE })
  .transform((v) => String(v).trim())
  // Aborting: the amount is not made (toCents would throw on it) when it is not one.
  .refine((v) => MONEY_PATTERN.test(v), { message: MONEY_MESSAGE, abort: true })
  .transform((v) => fromCents(toCents(v)));

/** PUT /api/admin/instant-decisions: the whole policy. */
export const instantPolicyInputSchema = z.object({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  minLevel: z
    .number({ error: 'minLevel must be a level from 0 to 2' })
    .int('minLevel must be a level from 0 to 2')
    .min(0, 'minLevel must be a level from 0 to 2')
    .max(2, 'minLevel must be a level from 0 to 2'),
  minCompletedCards: z
    .number({ error: 'minCompletedCards must be a whole number from 0' })
    .int('minCompletedCards must be a whole number from 0')
    .min(0, 'minCompletedCards must be a whole number from 0')
    .max(100_000, 'minCompletedCards is too large'),
  maxCardValue: moneyInput,
  maxDailyTotal: moneyInput,
  brands: z
    .array(z.string().trim().min(1, 'A brand name is required').max(120), {
      error: 'brands must be a list of brand names',
    })
    .max(200, 'At most 200 brands'),
  sampleRate: z
    .union([z.number(), z.string()], { error: 'sampleRate must be from 0 to 1' })
    .transform((v) => Number(v))
    .refine(
      (v) => Number.isFinite(v) && v >= 0 && v <= 1 && Math.round(v * 10_000) === v * 10_000,
      'sampleRate must be from 0 to 1, with at most 4 decimals',
    ),
});

/** A card's instant decision as staff read it (GET /api/admin/transactions/:id). */
export const instantDecisionSchema = z.union([
  z.object({ rules: z.array(z.string()) }),
  z.object({ refusedBecause: z.array(z.string()) }),
]);
export type InstantDecision = z.infer<typeof instantDecisionSchema>;

/** A sampled instant decision's after-review (POST /api/admin/transactions/:id/sample-review). */
export const SAMPLE_OUTCOMES = ['confirmed', 'clawback'] as const;
export const sampleReviewSchema = z.object({
  outcome: z.enum(SAMPLE_OUTCOMES, { error: 'outcome must be confirmed or clawback' }),
});
