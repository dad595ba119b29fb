import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/** The rollups (decision 085): their keys, the columns summed, and any kept as the largest. */
const ROLLUPS = [
  {
    table: 'analytics_cards_daily',
    keys: ['day', 'card_type'],
    sums: ['submitted', 'approved', 'rejected', 'value', 'paid'],
    kept: [],
  },
  { table: 'analytics_waits', keys: ['day', 'kind', 'minutes'], sums: ['cards'], kept: [] },
  {
    table: 'analytics_staff_daily',
    keys: ['day', 'staff_id'],
    sums: ['decisions', 'approved', 'rejected'],
    kept: ['email'],
  },
];

/**
 * Folds each rollup key's appended rows into one row, in one statement per table: the rows of
 * every key with an unfolded row are deleted and their sums inserted. Rows appended meanwhile
 * are not seen by the delete and wait for the next fold; two folds at once each re-insert only
 * what they deleted. Readers always sum, so they read the same before and after. Once a minute
 * (main.ts), on one instance.
 */
export async function foldAnalytics(db: Db) {
  for (const { table, keys, sums, kept } of ROLLUPS) {
    const on = keys.map((k) => `a.${k} = k.${k}`).join(' and ');
    const columns = [...keys, ...sums, ...kept].join(', ');
    const values = [...keys, ...sums.map((s) => `sum(${s})`), ...kept.map((c) => `max(${c})`)].join(
      ', ',
    );
    await db.execute(
      sql.raw(`
        with k as (select distinct ${keys.join(', ')} from ${table} where not folded),
        gone as (delete from ${table} a using k where ${on} returning a.*)
        insert into ${table} (${columns}, folded)
        select ${values}, true from gone group by ${keys.join(', ')}
        having ${sums.map((s) => `sum(${s}) <> 0`).join(' or ')}`),
    );
  }
}
