import { z } from 'zod';
import { dateParam } from './params';

/** The staff Analytics tab (issue 21, item 5): the ranges offered, and the longest allowed. */
export const ANALYTICS_RANGES = [7, 30, 90] as const;
export const ANALYTICS_MAX_DAYS = 366;

/** GET /api/admin/analytics?from=YYYY-MM-DD&to=YYYY-MM-DD (UTC days, both included). */
export const analyticsQuerySchema = z
  .object({ from: dateParam('from').optional(), to: dateParam('to').optional() })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must not be after to' });
    }
  });

export const analyticsDaySchema = z.object({
  date: z.string(),
  /** Cards submitted that day, and of them those approved (processing or completed) and rejected. */
  submitted: z.number(),
  approved: z.number(),
  rejected: z.number(),
  valueSubmitted: z.string(),
  /** Paid that day (payment sent or confirmed), whatever day the card came. */
  amountPaid: z.string(),
});
export type AnalyticsDay = z.infer<typeof analyticsDaySchema>;

export const analyticsSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(analyticsDaySchema),
  /** Of the cards submitted in the range and decided, the share approved (0 to 1); null if none. */
  approvalRate: z.number().nullable(),
  /** Medians over the cards first decided, and paid, in the range; null when there are none. */
  medianMinutesToDecision: z.number().nullable(),
  medianMinutesToPayment: z.number().nullable(),
  /** The brands of most value submitted in the range, at most 10. */
  brands: z.array(z.object({ cardType: z.string(), cards: z.number(), value: z.string() })),
  /** Decisions (a status set to approved or rejected) per staff member in the range. */
  staff: z.array(
    z.object({
      staffId: z.string(),
      /** The staff member's name as set in Staff, else their email (charts label people). */
      name: z.string(),
      email: z.string(),
      decisions: z.number(),
      approved: z.number(),
      rejected: z.number(),
    }),
  ),
});
export type Analytics = z.infer<typeof analyticsSchema>;

/** GET /api/stats/earnings: a seller's paid money per month (12 months) and by brand. */
export const earningsSchema = z.object({
  months: z.array(z.object({ month: z.string(), paid: z.string() })),
  brands: z.array(z.object({ cardType: z.string(), value: z.string() })),
});
export type Earnings = z.infer<typeof earningsSchema>;
