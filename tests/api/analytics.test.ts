import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../scripts/lib/postgres';
import { type Db, openDatabase } from '../../src/server/db/client';
import { transactions, uploads } from '../../src/server/db/schema';
import { foldAnalytics } from '../../src/server/modules/analytics/jobs';
import { analytics } from '../../src/server/modules/analytics/queries';
import { setUpAppWithStaff } from './builders';
import { as, reviewCard, type SignedIn, signInAs, signUp, submitCard } from './helpers';

/** Issue 21, items 5 and 6: the figures checked against seeded cards computed by hand. */
const { t, staff } = setUpAppWithStaff();

const get = (who: SignedIn, url: string) => as(t.app, who, { method: 'GET', url });
const RANGE = '/api/admin/analytics?from=2026-01-10&to=2026-01-12';
const MIGRATIONS = path.join(import.meta.dirname, '../../src/server/db/migrations');
const today = () => new Date(t.now()).toISOString().slice(0, 10);

let seller: SignedIn;
const at = (iso: string) => new Date(iso);

describe('analytics', () => {
  it('counts cards, value, money paid, the approval rate, medians, brands and decisions', async () => {
    seller = await signUp(t.app);
    const card = async (cardType: string, cardValue: string) => {
      const response = await submitCard(t.app, seller, { cardType, cardValue });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id as string;
    };
    const ids = [
      await card('Amazon', '100'),
      await card('Target', '50'),
      await card('Amazon', '200'),
      await card('Walmart', '80'),
    ];
    const review = async (id: string, payload: object) =>
      expect((await reviewCard(t.app, staff, id, payload)).statusCode).toBe(200);
    await review(ids[0]!, { status: 'processing' });
    await review(ids[1]!, { status: 'rejected', rejectionReason: 'code_invalid' });
    await review(ids[2]!, { status: 'completed', paymentStatus: 'sent', paymentAmount: '182.00' });
    // Their times, set by hand: minutes to decide 30, 120 and 10; 1,440 minutes to pay.
    const times: [string, Partial<typeof transactions.$inferInsert>][] = [
      [
        ids[0]!,
        { createdAt: at('2026-01-10T10:00:00Z'), firstDecisionAt: at('2026-01-10T10:30:00Z') },
      ],
      [
        ids[1]!,
        { createdAt: at('2026-01-10T12:00:00Z'), firstDecisionAt: at('2026-01-10T14:00:00Z') },
      ],
      [
        ids[2]!,
        {
          createdAt: at('2026-01-11T09:00:00Z'),
          firstDecisionAt: at('2026-01-11T09:10:00Z'),
          paidAt: at('2026-01-12T09:00:00Z'),
        },
      ],
      [ids[3]!, { createdAt: at('2026-01-12T08:00:00Z') }],
    ];
    for (const [id, set] of times) {
      await t.database.db.update(transactions).set(set).where(eq(transactions.id, id));
    }

    const answer = await get(staff, RANGE);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      from: '2026-01-10',
      to: '2026-01-12',
      days: [
        {
          date: '2026-01-10',
          submitted: 2,
          approved: 1,
          rejected: 1,
          valueSubmitted: '150.00',
          amountPaid: '0.00',
        },
        {
          date: '2026-01-11',
          submitted: 1,
          approved: 1,
          rejected: 0,
          valueSubmitted: '200.00',
          amountPaid: '0.00',
        },
        {
          date: '2026-01-12',
          submitted: 1,
          approved: 0,
          rejected: 0,
          valueSubmitted: '80.00',
          amountPaid: '182.00',
        },
      ],
      approvalRate: 0.6667,
      medianMinutesToDecision: 30,
      medianMinutesToPayment: 1440,
      brands: [
        { cardType: 'Amazon', cards: 2, value: '300.00' },
        { cardType: 'Walmart', cards: 1, value: '80.00' },
        { cardType: 'Target', cards: 1, value: '50.00' },
      ],
      // The decisions were made today, outside the range.
      staff: [],
    });

    // Today: the staff member's three decisions, two approvals and a rejection.
    const now = (await get(staff, `/api/admin/analytics?from=${today()}&to=${today()}`)).json();
    expect(now.staff).toEqual([
      {
        staffId: staff.user.id,
        // Charts label people by name (issue 43, 23).
        name: 'Sam Staff',
        email: staff.user.email,
        decisions: 3,
        approved: 2,
        rejected: 1,
      },
    ]);

    const csv = await get(staff, RANGE.replace('analytics', 'analytics.csv'));
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain('"2026-01-10","2","1","1","150.00","0.00"');
    expect(csv.body).toContain('"Amazon","2","300.00"');
    // Headers in Title Case, as every export writes them.
    expect(csv.body).toContain(
      '"Date","Submitted","Approved","Rejected","Value Submitted","Amount Paid"',
    );
  });

  it('shows finance the business, a reviewer their own row only, and support nothing', async () => {
    const [finance, reviewer, support] = (await Promise.all(
      (['finance', 'reviewer', 'support'] as const).map((role) => signInAs(t, role)),
    )) as [SignedIn, SignedIn, SignedIn];
    expect((await get(finance, RANGE)).json().days).toHaveLength(3);
    const own = (await get(reviewer, `/api/admin/analytics?from=${today()}&to=${today()}`)).json();
    expect(own).toMatchObject({ days: [], brands: [], approvalRate: null, staff: [] });
    const denied = await get(support, RANGE);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('forbidden_role');
    expect((await get(seller, RANGE)).statusCode).toBe(403);
  });

  it('keeps its rollups equal to the rows through changes sent all at once', async () => {
    const finance = await signInAs(t, 'finance');
    const second = await signInAs(t, 'owner');
    const sellers = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
    const brands = ['Amazon', 'Steam', 'Apple', 'Target'];
    const ids = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const response = await submitCard(t.app, sellers[i % 3]!, {
          cardType: brands[i % 4],
          cardValue: String(50 + i * 7),
        });
        expect(response.statusCode, response.body).toBe(201);
        return response.json().id as string;
      }),
    );
    const day = 86_400_000;
    const ago = (days: number, minutes = 0) => new Date(t.now() - days * day + minutes * 60_000);
    const patch = (who: SignedIn, id: string, payload: object) =>
      reviewCard(t.app, who, id, payload);
    // Reviews by two staff members, times moved by hand and a row deleted, all at once.
    const first = await Promise.all([
      patch(staff, ids[0]!, { status: 'processing' }),
      patch(second, ids[1]!, { status: 'rejected', rejectionReason: 'code_invalid' }),
      patch(staff, ids[2]!, {
        status: 'completed',
        paymentStatus: 'sent',
        paymentAmount: '60.00',
        overValueReason: 'A bonus',
      }),
      patch(second, ids[3]!, { status: 'completed' }),
      patch(staff, ids[4]!, { status: 'completed' }),
      patch(second, ids[5]!, { status: 'processing' }),
      ...ids.slice(6, 10).map((id, i) =>
        t.database.db
          .update(transactions)
          .set({ createdAt: ago(3 + i, i * 17), firstDecisionAt: ago(2 + i, i * 31) })
          .where(eq(transactions.id, id)),
      ),
      t.database.db
        .update(transactions)
        .set({ createdAt: ago(6) })
        .where(eq(transactions.id, ids[4]!)),
      t.database.db.transaction(async (tx) => {
        await tx.delete(uploads).where(eq(uploads.transactionId, ids[11]!));
        await tx.delete(transactions).where(eq(transactions.id, ids[11]!));
      }),
    ]);
    expectAnswered(first.slice(0, 6));
    // Then a payout batch, a decision changed and a paid card moved in time, again at once.
    const batch = await t.database.db
      .select({ id: transactions.id, amount: transactions.expectedPayout })
      .from(transactions)
      .where(inArray(transactions.id, [ids[3]!, ids[4]!]));
    const second_ = await Promise.all([
      as(t.app, finance, {
        method: 'POST',
        url: '/api/admin/payouts/mark-sent',
        payload: { items: batch },
      }),
      patch(staff, ids[5]!, { status: 'rejected', rejectionReason: 'code_invalid' }),
      patch(second, ids[0]!, { status: 'rejected', rejectionReason: 'code_invalid' }),
      t.database.db
        .update(transactions)
        .set({ createdAt: ago(5), paidAt: ago(1, 45) })
        .where(eq(transactions.id, ids[2]!)),
      foldAnalytics(t.database.db),
    ]);
    expectAnswered(second_.slice(0, 3));

    const from = new Date(t.now() - 20 * day).toISOString().slice(0, 10);
    const to = today();
    const answer = (await get(staff, `/api/admin/analytics?from=${from}&to=${to}`)).json();
    expect(answer).toEqual(await fromTheRows(from, to));
    // Folded into one row per key by the minute job: the same answer.
    await Promise.all([foldAnalytics(t.database.db), foldAnalytics(t.database.db)]);
    const unfolded = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from analytics_cards_daily where not folded`,
    );
    expect(unfolded.rows[0]!.n).toBe(0);
    expect((await get(staff, `/api/admin/analytics?from=${from}&to=${to}`)).json()).toEqual(answer);
    // Not empty: both staff members' decisions and the moved cards' days are in it.
    expect(answer.staff.map((s: { staffId: string }) => s.staffId).sort()).toEqual(
      [staff.user.id, second.user.id].sort(),
    );
    expect(
      answer.days.filter((d: { submitted: number }) => d.submitted > 0).length,
    ).toBeGreaterThan(3);
    // The middle payment waited about 4 days: counted to the hour, as the tab shows it.
    expect(answer.medianMinutesToPayment).toBeGreaterThan(2880);
    expect(answer.medianMinutesToPayment % 60).toBe(0);
  });

  it('counts the cards and decisions made before the rollups existed, as an upgrade finds them', async () => {
    // A database at migration 0023 (before the rollups) with a working exchange's rows in it.
    const fresh = process.env.DATABASE_URL
      ? await createPostgresDatabase(process.env.DATABASE_URL)
      : null;
    const database = await openDatabase({ databaseUrl: fresh?.url });
    const before = mkdtempSync(path.join(tmpdir(), 'cb-migrations-'));
    try {
      cpSync(MIGRATIONS, before, { recursive: true });
      const journal = path.join(before, 'meta', '_journal.json');
      const entries = JSON.parse(readFileSync(journal, 'utf8'));
      entries.entries = entries.entries.filter((e: { tag: string }) => e.tag < '0024');
      writeFileSync(journal, JSON.stringify(entries));
      await migrate(database.db, { migrationsFolder: before });
      const { db } = database;
      await db.execute(sql`
        insert into users (email, password, first_name, last_name)
        select 'old' || g || '@example.com', 'x', 'Old', 'Seller' || g from generate_series(1, 3) g`);
      await db.execute(sql`
        insert into payment_methods (user_id, type, account_name, identifier, is_default)
        select id, 'paypal', 'Old Seller', email, true from users`);
      await db.execute(sql`
        insert into transactions (user_id, card_type, card_value, card_condition, card_format,
                                  image_urls, status, payment_method_id, payout_rate,
                                  expected_payout, payment_status, payment_amount, paid_at,
                                  first_decision_at, created_at)
        select u.id, (array['Amazon', 'Steam', 'Apple'])[1 + g % 3], 50 + g, 'brand_new', 'egift',
               array['/objects/cards/old' || g || '.jpg'],
               (array['pending', 'processing', 'rejected', 'completed'])[1 + g % 4],
               p.id, 0.88, ((50 + g) * 0.88)::numeric(10,2),
               case when g % 4 = 3 then 'sent' else 'pending' end,
               case when g % 4 = 3 then ((50 + g) * 0.88)::numeric(10,2) end,
               case when g % 4 = 3 then now() - (g || ' hours')::interval + interval '3000 minutes' end,
               case when g % 4 > 0 then now() - (g || ' hours')::interval + (g * 7 || ' minutes')::interval end,
               now() - (g || ' hours')::interval
          from generate_series(1, 40) g
          join (select id, row_number() over (order by email) as n from users) u on u.n = 1 + g % 3
          join payment_methods p on p.user_id = u.id`);
      await db.execute(sql`
        insert into audit_log (entity_type, entity_id, actor_kind, actor_id, actor_email, action,
                               changes, created_at)
        select 'transaction', id, 'admin', '00000000-0000-4000-8000-000000000001',
               'old.staff@example.com', 'update',
               jsonb_build_object('status', jsonb_build_object('from', 'pending', 'to', status)),
               first_decision_at
          from transactions where status <> 'pending'`);

      await database.migrate();
      const from = new Date(Date.now() - 4 * 86_400_000).toISOString().slice(0, 10);
      const to = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const upgraded = await analytics(db, { from, to });
      expect(upgraded).toEqual(await fromTheRows(from, to, db));
      expect(upgraded.staff[0]?.decisions).toBe(30);
      // And the triggers keep it from there.
      await db.execute(sql`update transactions set status = 'completed' where status = 'pending'`);
      await foldAnalytics(db);
      expect(await analytics(db, { from, to })).toEqual(await fromTheRows(from, to, db));
    } finally {
      await database.close();
      await fresh?.drop();
      rmSync(before, { recursive: true, force: true });
    }
  });

  it('refuses a range backwards, too long or not made of dates', async () => {
    for (const query of [
      'from=2026-01-12&to=2026-01-10',
      'from=2024-01-01&to=2026-01-10',
      'from=2026-02-30',
      'to=yesterday',
    ]) {
      expect((await get(staff, `/api/admin/analytics?${query}`)).statusCode, query).toBe(400);
    }
    const standard = (await get(staff, '/api/admin/analytics')).json();
    expect(standard.days).toHaveLength(30);
    expect(standard.to).toBe(today());
  });

  it('gives a seller their paid money per month for 12 months, and by brand', async () => {
    const mine = await get(seller, '/api/stats/earnings');
    expect(mine.statusCode).toBe(200);
    const { months, brands } = mine.json();
    expect(months).toHaveLength(12);
    expect(months.at(-1).month).toBe(today().slice(0, 7));
    expect(months.find((m: { month: string }) => m.month === '2026-01')?.paid).toBe(
      t.now() < Date.parse('2027-01-01') ? '182.00' : undefined,
    );
    expect(brands).toEqual([{ cardType: 'Amazon', value: '182.00' }]);
    const stranger = (await get(await signUp(t.app), '/api/stats/earnings')).json();
    expect(stranger.brands).toEqual([]);
    expect(stranger.months.every((m: { paid: string }) => m.paid === '0.00')).toBe(true);
  });
});

function expectAnswered(answers: unknown[]) {
  for (const answer of answers) {
    const { statusCode, body } = answer as { statusCode: number; body: string };
    expect(statusCode, body).toBe(200);
  }
}

/**
 * The analytics computed straight from the rows, as they were before the rollups (decision 085):
 * what the rollups must always equal. Medians are of whole minutes up to 48 hours and whole hours
 * after, as the tab shows them and the rollups keep them.
 */
async function fromTheRows(from: string, to: string, db: Db = t.database.db) {
  const rows = async <T>(query: ReturnType<typeof sql>) => (await db.execute(query)).rows as T[];
  const inRange = (column: string) =>
    sql.raw(`(${column} at time zone 'UTC')::date between '${from}' and '${to}'`);
  const days = await rows<{
    date: string;
    submitted: number;
    approved: number;
    rejected: number;
    valueSubmitted: string;
    amountPaid: string;
  }>(sql`
    select to_char(d, 'YYYY-MM-DD') as date,
           (select count(*) from transactions where ${inRange('created_at')}
               and (created_at at time zone 'UTC')::date = d)::int as submitted,
           (select count(*) from transactions where (created_at at time zone 'UTC')::date = d
               and status in ('processing', 'completed'))::int as approved,
           (select count(*) from transactions where (created_at at time zone 'UTC')::date = d
               and status = 'rejected')::int as rejected,
           (select coalesce(sum(card_value), 0) from transactions
             where (created_at at time zone 'UTC')::date = d)::numeric(14,2)::text as "valueSubmitted",
           (select coalesce(sum(coalesce(payment_amount, expected_payout)), 0) from transactions
             where (paid_at at time zone 'UTC')::date = d
               and payment_status in ('sent', 'confirmed'))::numeric(14,2)::text as "amountPaid"
      from generate_series(${from}::date, ${to}::date, interval '1 day') d order by d`);
  const approved = days.reduce((n, d) => n + d.approved, 0);
  const decided = approved + days.reduce((n, d) => n + d.rejected, 0);
  const median = async (column: string, paidOnly: boolean) => {
    const [row] = await rows<{ median: number | null }>(sql`
      select percentile_cont(0.5) within group
               (order by case when m >= 2880 then m - m % 60 else m end) as median
        from (select *, floor(extract(epoch from ${sql.raw(column)} - created_at) / 60)::int as m
                from transactions) t
       where ${inRange(column)}
        ${paidOnly ? sql`and payment_status in ('sent', 'confirmed')` : sql``}`);
    return row!.median === null ? null : Math.round(Number(row!.median));
  };
  return {
    from,
    to,
    days,
    approvalRate: decided > 0 ? Math.round((approved / decided) * 10_000) / 10_000 : null,
    medianMinutesToDecision: await median('first_decision_at', false),
    medianMinutesToPayment: await median('paid_at', true),
    brands: await rows(sql`
      select card_type as "cardType", count(*)::int as cards,
             sum(card_value)::numeric(14,2)::text as value
        from transactions where ${inRange('created_at')}
       group by card_type order by sum(card_value) desc, card_type limit 10`),
    staff: await rows(sql`
      select actor_id as "staffId",
             coalesce((select nullif(trim(concat_ws(' ', first_name, last_name)), '') from admins
                        where admins.id = actor_id), max(actor_email)) as name,
             max(actor_email) as email, count(*)::int as decisions,
             count(*) filter (where changes->'status'->>'to' in ('processing', 'completed'))::int
               as approved,
             count(*) filter (where changes->'status'->>'to' = 'rejected')::int as rejected
        from audit_log
       where entity_type = 'transaction' and ${inRange('created_at')}
         and actor_kind = 'admin' and action = 'update'
         and changes->'status'->>'to' in ('processing', 'completed', 'rejected')
       group by actor_id order by count(*) desc, max(actor_email)`),
  };
}
