import { createHash, randomBytes } from 'node:crypto';
import { sign } from 'cookie-signature';
import { sql } from 'drizzle-orm';
import { hashPassword, upsertAdmin } from '../../src/server/common/accounts';
import { openDatabase } from '../../src/server/db/client';

/** How much a benchmark seeds: customers userN@bench.example, each with `cards` cards. */
export interface SeedSize {
  customers: number;
  cards: number;
  /** Every customer's password (one real bcrypt hash at cost 12, shared). */
  password: string;
  staff: { email: string; password: string };
}

/**
 * Seeds a database for the benchmarks: the customers, a PayPal method each, `cards` cards each
 * (minutes apart), 6 chat messages each, and a staff account. Answers one card id per customer.
 */
export interface Seeded {
  /** The id of one card of each customer, by customer number. */
  cardIds: string[];
}

export async function seedCardbridge(
  options: { databaseUrl?: string; pgliteDir?: string },
  { customers, cards, password, staff }: SeedSize,
) {
  const database = await openDatabase(options);
  await database.migrate();
  const db = database.db;
  const hash = await hashPassword(password, 12);
  await db.execute(sql`
    insert into users (email, password, first_name, last_name, created_at)
    select 'user' || g || '@bench.example', ${hash}, 'First' || g, 'Last' || g,
           now() - (g || ' minutes')::interval
    from generate_series(0, ${customers - 1}) g`);
  await db.execute(sql`
    insert into payment_methods (user_id, type, account_name, identifier, is_default)
    select id, 'paypal', first_name || ' ' || last_name, email, true from users`);
  await db.execute(sql`
    insert into transactions (user_id, card_type, card_value, card_condition, card_format,
                              image_urls, notes, payment_method_id, payout_rate, expected_payout,
                              created_at)
    select u.id, 'Amazon', 100.00, 'brand_new', 'egift',
           array['/objects/cards/' || gen_random_uuid() || '.png'], 'note', pm.id, 0.9100, 91.00,
           now() - (k || ' minutes')::interval
    from users u join payment_methods pm on pm.user_id = u.id
    cross join generate_series(1, ${cards}) k`);
  await db.execute(sql`
    insert into chat_messages (user_id, sender_type, message, created_at)
    select u.id, case when k % 2 = 0 then 'admin' else 'user' end,
           'Chat message number ' || k || ' about my gift card', now() - ((7 - k) || ' hours')::interval
    from users u cross join generate_series(1, 6) k`);
  // As a running database's would be: the new rows' visibility settled (hint bits) and counted.
  await db.execute(sql`vacuum analyze`);
  await upsertAdmin(db, staff, 4);
  const rows = await db.execute<{ n: string; id: string }>(sql`
    select distinct on (u.email) substring(u.email from 5 for position('@' in u.email) - 5) as n, t.id
    from users u join transactions t on t.user_id = u.id
    order by u.email, t.created_at`);
  const cardIds: string[] = [];
  for (const row of rows.rows) cardIds[Number(row.n)] = row.id;
  await database.close();
  return { cardIds } satisfies Seeded;
}

/**
 * Signs in every seeded account of `kind` directly in the database: one session row each, as
 * sign-ins made before the benchmark would have left them. Answers their cookies, signed with
 * `secret` (the server's SESSION_SECRET), in email order.
 */
export async function signInSeeded(
  options: { databaseUrl?: string; pgliteDir?: string },
  secret: string,
  kind: 'user' | 'admin' = 'user',
) {
  const database = await openDatabase(options);
  const { rows } = await database.db.execute<{ id: string }>(
    kind === 'user'
      ? sql`select id from users order by email`
      : sql`select id from admins order by email`,
  );
  const tokens = rows.map(() => randomBytes(32).toString('base64url'));
  const sids = tokens.map((t) => createHash('sha256').update(t).digest('hex'));
  await database.pool.query(
    `insert into sessions (sid, sess, expire, account_kind, account_id, created_at, last_seen_at)
     select sid, '{}'::json, now() + interval '20 hours', $3, id::uuid,
            now() - interval '4 hours', now() - interval '4 hours'
       from unnest($1::text[], $2::text[]) as s(sid, id)`,
    [sids, rows.map((r) => r.id), kind],
  );
  // As a running database's would be: the new rows' visibility settled (hint bits) and counted,
  // so the first run measured does not pay for it.
  await database.pool.query('vacuum analyze sessions');
  await database.close();
  return tokens.map((t) => `cb.sid=${encodeURIComponent(sign(t, secret))}`);
}
