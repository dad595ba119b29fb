import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { transactions } from '../../src/server/db/schema';
import { sellerWithMethod, setUpAppWithStaff } from './builders';
import { as, reviewCard, type SignedIn, submitCard, uploadCardImage } from './helpers';

const { t, staff } = setUpAppWithStaff();
const HOUR_MS = 60 * 60 * 1000;

/** A customer with a payment method, and a function that submits a card of theirs. */
async function seller(level = 0) {
  const { who, methodId } = await sellerWithMethod(t, level);
  const card = (cardValue: string, image?: string) =>
    submitCard(t.app, who, {
      cardValue,
      paymentMethodId: methodId,
      ...(image ? { imageUrls: [image] } : {}),
    });
  return { who, card };
}

/** Moves the customer's cards back in time (as if submitted `ms` earlier). */
const age = (who: SignedIn, ms: number) =>
  t.database.db
    .update(transactions)
    .set({ createdAt: sql`${transactions.createdAt} - make_interval(secs => ${ms / 1000})` })
    .where(eq(transactions.userId, who.user.id));

/** The card rejected by staff and appealed by its customer; answers its id. */
async function rejectedAndAppealed(who: SignedIn, id: string) {
  const rejected = await reviewCard(t.app, staff, id, {
    status: 'rejected',
    rejectionReason: 'code_invalid',
  });
  expect(rejected.statusCode).toBe(200);
  const appealed = await as(t.app, who, {
    method: 'POST',
    url: `/api/transactions/${id}/appeal`,
    payload: { message: 'The code works.' },
  });
  expect(appealed.statusCode).toBe(201);
  return id;
}

const decide = (id: string, decision: 'upheld' | 'overturned') =>
  as(t.app, staff, {
    method: 'POST',
    url: `/api/admin/transactions/${id}/appeal/decision`,
    payload: { decision, note: 'Checked again.' },
  });

const usage = async (who: SignedIn) =>
  (await as(t.app, who, { method: 'GET', url: '/api/verification' })).json().limits;

describe('limits by level', () => {
  it('refuses one cent over the per-card limit with the contract’s 403, and accepts the limit itself', async () => {
    const { card } = await seller();
    expect((await card('499.99')).statusCode).toBe(201);
    const over = await card('500.01');
    expect(over.statusCode).toBe(403);
    expect(over.json()).toEqual({
      message:
        'This card is over your limit of $500.00 per card. Verify your identity to raise your limit per card to $2,000.00.',
      code: 'verification_required',
      requiredLevel: 1,
      limit: 'perCard',
    });
    // Refused cards are not stored, and count for nothing.
    const { card: second } = await seller();
    expect((await second('500')).statusCode).toBe(201);

    const { card: verified } = await seller(1);
    expect((await verified('2000')).statusCode).toBe(201);
    const overLevel1 = (await verified('2000.01')).json();
    expect(overLevel1).toMatchObject({ requiredLevel: 2, limit: 'perCard' });
    const { card: top } = await seller(2);
    const overLevel2 = await top('10000.01');
    expect(overLevel2.statusCode).toBe(403);
    expect(overLevel2.json()).toMatchObject({ requiredLevel: null, limit: 'perCard' });
  });

  it('refuses at the per-24-hours limit plus a cent, counting every card not rejected', async () => {
    const { who, card } = await seller();
    expect((await card('500')).statusCode).toBe(201);
    expect((await card('400')).statusCode).toBe(201);
    const rejectedId = (await card('99.99')).json().id as string;
    expect(await usage(who)).toMatchObject({ usedDay: '999.99', used30Days: '999.99' });
    const over = await card('25');
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ limit: 'perDay', requiredLevel: 1 });
    expect(over.json().message).toMatch(/\$1,000\.00 per 24 hours \(\$0\.01 left\)/);

    // A rejected card frees its value.
    const rejected = await reviewCard(t.app, staff, rejectedId, {
      status: 'rejected',
      rejectionReason: 'balance_differs',
    });
    expect(rejected.statusCode).toBe(200);
    expect((await card('100.01')).statusCode).toBe(403);
    expect((await card('100')).statusCode).toBe(201);
  });

  it('refuses past the per-30-days limit, and frees it 30 days on', async () => {
    const { who, card } = await seller();
    for (let day = 0; day < 3; day++) {
      expect((await card('500')).statusCode).toBe(201);
      expect((await card('500')).statusCode).toBe(201);
      await age(who, 25 * HOUR_MS);
    }
    expect(await usage(who)).toMatchObject({ usedDay: '0.00', used30Days: '3000.00' });
    const over = await card('25');
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ limit: 'per30Days', requiredLevel: 1 });
    // The oldest two cards are now 75 hours old; 27 days more and they leave the window.
    await age(who, (30 * 24 - 75) * HOUR_MS + 60_000);
    expect((await usage(who)).used30Days).toBe('2000.00');
    expect((await card('500')).statusCode).toBe(201);
  });

  it('lets exactly the cards that fit through when 10 race for the last $100', async () => {
    const { who, card } = await seller();
    expect((await card('500')).statusCode).toBe(201);
    expect((await card('400')).statusCode).toBe(201);
    const images = await Promise.all(Array.from({ length: 10 }, () => uploadCardImage(t.app, who)));
    const answers = await Promise.all(images.map((image) => card('25', image)));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(4);
    expect(codes.filter((c) => c === 403)).toHaveLength(6);
    expect(await usage(who)).toMatchObject({ usedDay: '1000.00' });
  });

  it('races of uneven values never pass the allowance', async () => {
    const { who, card } = await seller();
    expect((await card('900')).statusCode).toBe(403);
    expect((await card('500')).statusCode).toBe(201);
    expect((await card('400')).statusCode).toBe(201);
    const values = ['30', '45', '25', '60', '35', '50', '25', '40', '55', '26'];
    const images = await Promise.all(values.map(() => uploadCardImage(t.app, who)));
    const answers = await Promise.all(values.map((v, i) => card(v, images[i])));
    const passed = values.filter((_, i) => answers[i]!.statusCode === 201);
    const total = passed.reduce((sum, v) => sum + Number(v), 0);
    expect(total).toBeLessThanOrEqual(100);
    // Every refused card would have gone over what was left when it was counted.
    const smallestRefused = Math.min(
      ...values.filter((_, i) => answers[i]!.statusCode === 403).map(Number),
    );
    expect(total + smallestRefused).toBeGreaterThan(100);
    expect((await usage(who)).usedDay).toBe(`${900 + total}.00`);
  });

  it('counts an overturned card again as at submission: past a limit it stays rejected and its appeal waits', async () => {
    const { who, card } = await seller();
    expect((await card('500')).statusCode).toBe(201);
    const appealed = await rejectedAndAppealed(who, (await card('500')).json().id);
    expect((await card('500')).statusCode).toBe(201);
    const refused = await decide(appealed, 'overturned');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message:
        'Overturning would take the customer over their limit of $1,000.00 per 24 hours ($0.00 left), so the card stays rejected and the appeal stays open. Overturn it once the limit allows (the window moves on, or the customer verifies), or uphold it.',
      code: 'over_limit',
      limit: 'perDay',
    });
    const card2 = (
      await as(t.app, staff, { method: 'GET', url: `/api/admin/transactions/${appealed}` })
    ).json();
    expect(card2).toMatchObject({ status: 'rejected', appeal: { status: 'pending' } });
    expect(await usage(who)).toMatchObject({ usedDay: '1000.00', used30Days: '1000.00' });
    // A day on, the 24 hours have room again (the 30 days still count all three).
    await age(who, 25 * HOUR_MS);
    const overturned = await decide(appealed, 'overturned');
    expect(overturned.statusCode, overturned.body).toBe(200);
    expect(overturned.json().status).toBe('pending');
    expect(await usage(who)).toMatchObject({ usedDay: '0.00', used30Days: '1500.00' });
  });

  it('lets only one of two overturns sent at once take the last of the 24 hours', async () => {
    const { who, card } = await seller();
    expect((await card('500')).statusCode).toBe(201);
    const first = await rejectedAndAppealed(who, (await card('400')).json().id);
    const second = await rejectedAndAppealed(who, (await card('400')).json().id);
    const answers = await Promise.all([decide(first, 'overturned'), decide(second, 'overturned')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().code).toBe('over_limit');
    expect((await usage(who)).usedDay).toBe('900.00');
  });

  it('lets one of an overturn and a submission sent at once take the last of the 24 hours', async () => {
    const { who, card } = await seller();
    expect((await card('500')).statusCode).toBe(201);
    const appealed = await rejectedAndAppealed(who, (await card('400')).json().id);
    const image = await uploadCardImage(t.app, who);
    const [overturned, submitted] = await Promise.all([
      decide(appealed, 'overturned'),
      card('500', image),
    ]);
    const outcome = [overturned.statusCode, submitted.statusCode];
    expect([
      [200, 403],
      [409, 201],
    ]).toContainEqual(outcome);
    expect((await usage(who)).usedDay).toBe(outcome[0] === 200 ? '900.00' : '1000.00');
  });

  it('lets staff edit the table, audited and kept in history; customers cannot', async () => {
    const list = await as(t.app, staff, { method: 'GET', url: '/api/admin/limits' });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((l: object) => ({ ...l, updatedAt: undefined }))).toEqual([
      {
        level: 0,
        perCard: '500.00',
        perDay: '1000.00',
        per30Days: '3000.00',
        updatedAt: undefined,
      },
      {
        level: 1,
        perCard: '2000.00',
        perDay: '5000.00',
        per30Days: '20000.00',
        updatedAt: undefined,
      },
      {
        level: 2,
        perCard: '10000.00',
        perDay: '25000.00',
        per30Days: '100000.00',
        updatedAt: undefined,
      },
    ]);
    const { card } = await seller();
    const put = (level: string | number, payload: object, who: SignedIn = staff) =>
      as(t.app, who, { method: 'PUT', url: `/api/admin/limits/${level}`, payload });

    const changed = await put(0, { perCard: '300', perDay: '1000', per30Days: '3000' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ level: 0, perCard: '300.00' });
    expect((await card('300.01')).statusCode).toBe(403);
    expect((await card('300')).statusCode).toBe(201);
    expect((await put(0, { perCard: '500', perDay: '1000', per30Days: '3000' })).statusCode).toBe(
      200,
    );

    const history = (
      await as(t.app, staff, { method: 'GET', url: '/api/admin/limits/history' })
    ).json();
    expect(history.slice(0, 2).map((h: { changes: object }) => h.changes)).toEqual([
      { level: { from: 0, to: 0 }, perCard: { from: '300.00', to: '500.00' } },
      { level: { from: 0, to: 0 }, perCard: { from: '500.00', to: '300.00' } },
    ]);
    expect(history[0].actorEmail).toBe(staff.user.email);

    const bad = await put(1, { perCard: '6000', perDay: '5000', per30Days: '20000' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.perCard).toBe('Per card cannot be more than per 24 hours');
    expect((await put(1, { perCard: '-1', perDay: '5000', per30Days: '20000' })).statusCode).toBe(
      400,
    );
    expect((await put(3, { perCard: '1', perDay: '1', per30Days: '1' })).statusCode).toBe(400);
    expect((await put('x', { perCard: '1', perDay: '1', per30Days: '1' })).statusCode).toBe(400);
    const { who } = await seller();
    expect(
      (await put(0, { perCard: '9000', perDay: '9000', per30Days: '9000' }, who)).statusCode,
    ).toBe(403);
    expect((await as(t.app, who, { method: 'GET', url: '/api/admin/limits' })).statusCode).toBe(
      403,
    );
  });
  // Last: it moves the app's clock a day on (staff sessions end).
  it('rolls the 24-hour window on by the app’s clock', async () => {
    const { who, card } = await seller();
    expect((await card('500')).statusCode).toBe(201);
    expect((await card('500')).statusCode).toBe(201);
    expect((await card('25')).statusCode).toBe(403);
    t.advance(23 * HOUR_MS + 59 * 60 * 1000);
    expect((await card('25')).statusCode).toBe(403);
    t.advance(2 * 60 * 1000);
    expect((await card('25')).statusCode).toBe(201);
    expect(await usage(who)).toMatchObject({ usedDay: '25.00', used30Days: '1025.00' });
  });
});
