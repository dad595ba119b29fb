import { sql } from 'drizzle-orm';
import type { Db } from './client';

/** A table of appended differences (decision 085): its keys, the columns summed, any kept. */
export interface Rollup {
  table: string;
  keys: string[];
  sums: string[];
  kept?: string[];
}

/**
 * Folds each key's appended rows into one row, in one statement: the rows of every key with an
 * unfolded row are deleted and their sums inserted. Rows appended meanwhile are not seen by the
 * delete and wait for the next fold; two folds at once each re-insert only what they deleted.
 * Readers always sum, so they read the same before and after.
 */
export async function foldRollup(db: Db, { table, keys, sums, kept = [] }: Rollup) {
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
