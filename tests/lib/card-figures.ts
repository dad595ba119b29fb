import { sql } from 'drizzle-orm';
import type { Database } from '../../src/server/db/client';

/**
 * Each seller's dashboard figures as they were computed from the cards before the books (issue
 * 39): paid out (`earned`) and approved but not yet paid (`awaiting`), by user id.
 */
export async function figuresFromCards(db: Database['db']) {
  const { rows } = await db.execute<{ user_id: string; earned: string; awaiting: string }>(sql`
    select user_id,
      coalesce(sum(payment_amount) filter (where payment_status in ('sent', 'confirmed')), 0)::numeric(12,2)::text as earned,
      coalesce(sum(coalesce(payment_amount, expected_payout)) filter (
        where status in ('processing', 'completed') and payment_status = 'pending'
          and offer_status is distinct from 'pending'), 0)::numeric(12,2)::text as awaiting
    from transactions group by user_id order by user_id`);
  return rows;
}
