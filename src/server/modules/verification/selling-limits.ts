import { and, asc, eq, gt, notInArray, sql } from 'drizzle-orm';
import { type LevelLimits, limitRefusal } from '../../../shared/verification';
import type { Db } from '../../db/client';
import { transactions, verificationLimits } from '../../db/schema';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The limits of every level, lowest level first (decision 072). */
export async function levelLimits(db: Db): Promise<LevelLimits[]> {
  const rows = await db.select().from(verificationLimits).orderBy(asc(verificationLimits.level));
  return rows.map((r) => ({
    level: r.level,
    perCard: r.perCard,
    perDay: r.perDay,
    per30Days: r.per30Days,
    updatedAt: r.updatedAt.toISOString(),
  }));
}

/**
 * Card value the customer submitted in the rolling 24 hours and 30 days before `now` (the app's
 * clock): every card not rejected or withdrawn (decision 135) counts.
 */
export async function submittedValue(db: Db, userId: string, now: number) {
  const dayStart = new Date(now - DAY_MS);
  const monthStart = new Date(now - 30 * DAY_MS);
  const [row] = await db
    .select({
      // Capped at the largest amount a money column holds, so the sum stays a money string.
      day: sql<string>`least(coalesce(sum(${transactions.cardValue}) filter (where ${transactions.createdAt} > ${dayStart}), 0), 99999999.99)::numeric(10,2)::text`,
      month: sql<string>`least(coalesce(sum(${transactions.cardValue}), 0), 99999999.99)::numeric(10,2)::text`,
    })
    .from(transactions)
    .where(
      and(
        eq(transactions.userId, userId),
        notInArray(transactions.status, ['rejected', 'withdrawn']),
        gt(transactions.createdAt, monthStart),
      ),
    );
  return { usedDay: row?.day ?? '0.00', used30Days: row?.month ?? '0.00' };
}

/**
 * Whether `value` more, counted now, takes the customer past a limit of their level: a card's
 * submission, or a rejected card coming back (decision 105). Call it under the account's row
 * lock (lockAccount), so that two such counts cannot both take the last of an allowance.
 */
export async function sellingLimitRefusal(
  db: Db,
  userId: string,
  level: number,
  value: string,
  now: number,
) {
  return limitRefusal(value, await submittedValue(db, userId, now), level, await levelLimits(db));
}
