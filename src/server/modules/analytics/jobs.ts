import type { Db } from '../../db/client';
import { foldRollup, type Rollup } from '../../db/rollups';

/** The rollups (decision 085): their keys, the columns summed, and any kept as the largest. */
const ROLLUPS: Rollup[] = [
  {
    table: 'analytics_cards_daily',
    keys: ['day', 'card_type'],
    sums: ['submitted', 'approved', 'rejected', 'value', 'paid'],
  },
  { table: 'analytics_waits', keys: ['day', 'kind', 'minutes'], sums: ['cards'] },
  {
    table: 'analytics_staff_daily',
    keys: ['day', 'staff_id'],
    sums: ['decisions', 'approved', 'rejected'],
    kept: ['email'],
  },
];

/** Folds each rollup's appended rows (db/rollups.ts), once a minute (main.ts), on one instance. */
export async function foldAnalytics(db: Db) {
  for (const rollup of ROLLUPS) await foldRollup(db, rollup);
}
