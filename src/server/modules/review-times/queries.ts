import { type AnyColumn, and, eq, gte, lt, sql } from 'drizzle-orm';
import {
  BRAND_MIN_SAMPLE,
  REVIEW_WINDOW_DAYS,
  type ReviewSummary,
  type ReviewTimes,
} from '../../../shared/fair-dealing';
import type { Db } from '../../db/client';
import { transactions } from '../../db/schema';

const DAY_MS = 24 * 60 * 60 * 1000;

type Medians = Pick<ReviewTimes, 'overall' | 'brands'>;

/**
 * The median minutes from a card's submission to `until` over the cards whose `until` falls in
 * the window, overall and for each brand with at least BRAND_MIN_SAMPLE of them.
 */
async function mediansTo(db: Db, until: AnyColumn, now: Date): Promise<Medians> {
  const minutes = sql`extract(epoch from (${until} - ${transactions.createdAt})) / 60`;
  const rows = await db
    .select({
      cardType: transactions.cardType,
      overall: sql<number>`grouping(${transactions.cardType})`,
      sample: sql<number>`count(*)::int`,
      median: sql<number | null>`percentile_cont(0.5) within group (order by ${minutes})`,
    })
    .from(transactions)
    .where(and(gte(until, new Date(now.getTime() - REVIEW_WINDOW_DAYS * DAY_MS)), lt(until, now)))
    .groupBy(sql`grouping sets ((${transactions.cardType}), ())`);
  const asMinutes = (median: number | null) =>
    median === null ? null : Math.max(1, Math.round(Number(median)));
  const total = rows.find((r) => Number(r.overall) === 1);
  const brands: ReviewTimes['brands'] = {};
  for (const row of rows) {
    if (Number(row.overall) === 1 || row.sample < BRAND_MIN_SAMPLE) continue;
    brands[row.cardType] = { medianMinutes: asMinutes(row.median), sample: row.sample };
  }
  return {
    overall: { medianMinutes: asMinutes(total?.median ?? null), sample: total?.sample ?? 0 },
    brands,
  };
}

/**
 * How long review takes (decision 073): the median minutes from submission to the first staff
 * decision over the decisions of the last 7 days, overall and for each brand with at least 20
 * of them. No decisions: a null median, and the client states the target instead. And how long
 * payment takes (decision 150): the same, from submission to the payment sent (`paid_at`), over
 * the cards paid in those 7 days.
 */
export async function reviewTimes(db: Db, now: Date, targetMinutes: number): Promise<ReviewTimes> {
  const [review, payment] = await Promise.all([
    mediansTo(db, transactions.firstDecisionAt, now),
    mediansTo(db, transactions.paidAt, now),
  ]);
  return { ...review, targetMinutes, payment };
}

/**
 * Staff's summary: the cards still waiting for a first decision past the target, and the appeals
 * waiting for a decision.
 */
export async function reviewSummary(
  db: Db,
  now: Date,
  targetMinutes: number,
): Promise<ReviewSummary> {
  const [overTarget, appealsPending] = await Promise.all([
    db.$count(
      transactions,
      and(
        eq(transactions.status, 'pending'),
        lt(transactions.createdAt, new Date(now.getTime() - targetMinutes * 60 * 1000)),
      ),
    ),
    db.$count(transactions, eq(transactions.appealStatus, 'pending')),
  ]);
  return { overTarget, targetMinutes, appealsPending };
}
