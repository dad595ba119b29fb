import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { transactions } from '../../src/server/db/schema';
import { setUpAppWithStaff } from './builders';
import { as, reviewCard, signInStaff, signUp, submitCard } from './helpers';

const { t, staff } = setUpAppWithStaff();

const times = async () => {
  const response = await t.app.inject({ method: 'GET', url: '/api/review-times' });
  expect(response.statusCode).toBe(200);
  return response.json();
};

/** `count` decided cards of `brand`, each decided `minutes(i)` after submission, `ago` ms back. */
async function seedDecisions(
  userId: string,
  brand: string,
  count: number,
  minutes: (i: number) => number,
  agoMs = 60 * 60 * 1000,
) {
  const values = Array.from({ length: count }, (_, i) => sql`(${minutes(i)}::int)`);
  const now = new Date(t.now() - agoMs).toISOString();
  await t.database.db.execute(sql`
    insert into ${transactions} (user_id, card_type, card_value, card_condition, card_format,
      image_urls, payout_rate, expected_payout, status, created_at, first_decision_at)
    select ${userId}::uuid, ${brand}, '100', 'brand_new', 'egift', '{}', '0.9', '90', 'processing',
           ${now}::timestamptz - m * interval '1 minute', ${now}::timestamptz
      from (values ${sql.join(values, sql`, `)}) as d(m)`);
}

describe('review times (decision 073)', () => {
  it('states no median before any decision, with the target to fall back on', async () => {
    expect(await times()).toEqual({
      overall: { medianMinutes: null, sample: 0 },
      brands: {},
      targetMinutes: 120,
      payment: { overall: { medianMinutes: null, sample: 0 }, brands: {} },
    });
  });

  it('is the median from submission to the first decision over 7 days, per brand from 20 decisions', async () => {
    const customer = await signUp(t.app);
    // 21 Target cards: 10 to 30 minutes, median 20. 5 Nike cards of 100 minutes: too few alone.
    await seedDecisions(customer.user.id, 'Target', 21, (i) => 10 + i);
    await seedDecisions(customer.user.id, 'Nike', 5, () => 100);
    // Decisions older than 7 days do not count.
    await seedDecisions(customer.user.id, 'Nike', 30, () => 5000, 8 * 24 * 60 * 60 * 1000);
    const answer = await times();
    // Overall: 26 decisions, 10..30 and five 100s: the 13th and 14th, 22 and 23, give 22.5 → 23.
    expect(answer).toEqual({
      overall: { medianMinutes: 23, sample: 26 },
      brands: { Target: { medianMinutes: 20, sample: 21 } },
      targetMinutes: 120,
      // Decided but not paid: no time to payment yet.
      payment: { overall: { medianMinutes: null, sample: 0 }, brands: {} },
    });
  });

  it('is the median from submission to payment over the cards paid in 7 days (decision 150)', async () => {
    const customer = await signUp(t.app);
    const paid = async (
      brand: string,
      count: number,
      minutes: (i: number) => number,
      agoMs: number,
    ) => {
      const values = Array.from({ length: count }, (_, i) => sql`(${minutes(i)}::int)`);
      const at = new Date(t.now() - agoMs).toISOString();
      await t.database.db.execute(sql`
        insert into ${transactions} (user_id, card_type, card_value, card_condition, card_format,
          image_urls, payout_rate, expected_payout, status, payment_status, created_at,
          first_decision_at, paid_at)
        select ${customer.user.id}::uuid, ${brand}, '100', 'brand_new', 'egift', '{}', '0.9', '90',
               'completed', 'sent', ${at}::timestamptz - m * interval '1 minute',
               ${at}::timestamptz - m * interval '1 minute' + interval '1 minute', ${at}::timestamptz
          from (values ${sql.join(values, sql`, `)}) as d(m)`);
    };
    // No card was paid before this one's seed.
    expect((await times()).payment.overall.sample).toBe(0);
    // 20 Apple cards paid 4 to 23 minutes after submission (median 13.5 → 14): a brand's own.
    await paid('Apple', 20, (i) => 4 + i, 60 * 60 * 1000);
    // 19 Sephora cards of 300 minutes: one short of a brand's own median.
    await paid('Sephora', 19, () => 300, 60 * 60 * 1000);
    // Paid 7 days and a minute ago: outside the window.
    await paid('Apple', 25, () => 9000, (7 * 24 * 60 + 1) * 60 * 1000);
    const { payment } = await times();
    expect(payment.brands.Apple).toEqual({ medianMinutes: 14, sample: 20 });
    expect(payment.brands.Sephora).toBeUndefined();
    // 39 paid cards: 4..23 and nineteen 300s; the 20th is 23.
    expect(payment.overall).toEqual({ medianMinutes: 23, sample: 39 });
  });

  it('stamps a card’s first decision once, from staff’s first status change', async () => {
    const customer = await signUp(t.app);
    const card = (await submitCard(t.app, customer)).json();
    const detail = async () =>
      (await as(t.app, staff, { method: 'GET', url: `/api/admin/transactions/${card.id}` })).json();
    expect((await detail()).firstDecisionAt).toBeNull();
    await reviewCard(t.app, staff, card.id, { adminNotes: 'Looking' });
    expect((await detail()).firstDecisionAt).toBeNull();
    await reviewCard(t.app, staff, card.id, { status: 'processing' });
    const first = (await detail()).firstDecisionAt;
    expect(first).toEqual(expect.any(String));
    await reviewCard(t.app, staff, card.id, { status: 'completed' });
    expect((await detail()).firstDecisionAt).toBe(first);
  });

  it('counts for staff the pending cards older than the target, by the app’s clock', async () => {
    const summary = async () =>
      (await as(t.app, staff, { method: 'GET', url: '/api/admin/review-summary' })).json();
    const before = await summary();
    expect(before.targetMinutes).toBe(120);
    const customer = await signUp(t.app);
    await submitCard(t.app, customer);
    expect((await summary()).overTarget).toBe(before.overTarget);
    t.advance(121 * 60 * 1000);
    // Staff sessions idle out after 30 minutes: sign in again after the clock moved.
    const again = await signInStaff(t);
    const after = (
      await as(t.app, again, { method: 'GET', url: '/api/admin/review-summary' })
    ).json();
    expect(after.overTarget).toBe(before.overTarget + 1);
    const customerCall = await as(t.app, customer, {
      method: 'GET',
      url: '/api/admin/review-summary',
    });
    expect([401, 403]).toContain(customerCall.statusCode);
  });
});
