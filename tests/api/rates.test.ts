import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { BRANDS, brandRate, seedMinimum } from '../../src/shared/brands';
import { setUpAppWithStaff } from './builders';
import { as, type SignedIn, signInAs, signUp, submitCard } from './helpers';

const { t, staff } = setUpAppWithStaff();
let customer: SignedIn;
beforeAll(async () => {
  customer = await signUp(t.app);
});

const publicRates = () => t.app.inject({ method: 'GET', url: '/api/rates' });
const setTerms = (brand: string, body: object, who: SignedIn = staff) =>
  as(t.app, who, {
    method: 'PUT',
    url: `/api/admin/rates/${encodeURIComponent(brand)}`,
    payload: body,
  });

const submit = (body: object) => submitCard(t.app, customer, body);

describe('rates', () => {
  it('start as the specification’s table, highest rate first and Other last, for anyone', async () => {
    const response = await publicRates();
    expect(response.statusCode).toBe(200);
    const expected = [...BRANDS]
      .map((brand, i) => ({ brand, rate: brandRate(brand), minimum: seedMinimum(brand), i }))
      .sort(
        (a, b) =>
          (a.brand === 'Other' ? 1 : b.brand === 'Other' ? -1 : 0) ||
          Number(b.rate) - Number(a.rate) ||
          a.i - b.i,
      )
      .map(({ i: _i, ...terms }) => ({ ...terms, tiers: [] }));
    expect(response.json()).toEqual(expected);
    expect(response.json()).toHaveLength(47);
    expect(response.json()[0]).toEqual({
      brand: 'Amazon',
      rate: '0.91',
      minimum: '25.00',
      tiers: [],
    });
    expect(response.json().at(-1)).toEqual({
      brand: 'Other',
      rate: '0.85',
      minimum: '50.00',
      tiers: [],
    });
  });

  it('are answered from memory until staff change them, with an ETag', async () => {
    const first = await publicRates();
    const etag = first.headers.etag as string;
    const before = t.database.statements;
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/rates',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(await publicRates()).toMatchObject({ statusCode: 200, body: first.body });
    expect(t.database.statements).toBe(before);
    await setTerms('Belk', { rate: '0.84' });
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/rates',
      headers: { 'if-none-match': etag },
    });
    expect(after.statusCode).toBe(200);
    expect(after.json().find((r: { brand: string }) => r.brand === 'Belk').rate).toBe('0.84');
  });

  it('are changed by staff only, within 0.01–1.00, and audited with before and after', async () => {
    expect((await setTerms('Visa', { rate: '0.5' }, customer)).statusCode).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/admin/rates/Visa',
          payload: { rate: '0.5' },
        })
      ).statusCode,
    ).toBe(401);
    for (const rate of ['0', '0.005', '1.5', '-0.9', 'abc', '0.12345']) {
      const refused = await setTerms('Visa', { rate });
      expect(refused.statusCode, rate).toBe(400);
      expect(refused.json().errors.rate).toBe(
        'Rate must be between 0.01 and 1.00 (at most 4 decimals)',
      );
    }
    expect((await setTerms('Visa', { minimum: '0.50' })).statusCode).toBe(400);
    expect((await setTerms('No Such Brand', { rate: '0.5' })).statusCode).toBe(404);

    const changed = await setTerms('Visa', { rate: '.905', minimum: '30' });
    expect(changed.json()).toEqual({ brand: 'Visa', rate: '0.905', minimum: '30.00', tiers: [] });
    const history = await as(t.app, staff, { method: 'GET', url: '/api/admin/rates/history' });
    const [entry] = history.json().filter((h: { brand: string }) => h.brand === 'Visa');
    expect(entry).toMatchObject({
      action: 'update',
      actorEmail: staff.user.email,
      changes: {
        rate: { from: '0.91', to: '0.905' },
        minimum: { from: '50.00', to: '30.00' },
      },
    });
  });

  it('apply to new quotes only: a card keeps the rate of its submission', async () => {
    const before = (await submit({ cardType: 'Target' })).json();
    expect(before).toMatchObject({ payoutRate: '0.8800', expectedPayout: '88.00' });
    await setTerms('Target', { rate: '0.80' });
    const after = (await submit({ cardType: 'Target' })).json();
    expect(after).toMatchObject({ payoutRate: '0.8000', expectedPayout: '80.00' });
    const list = (await as(t.app, customer, { method: 'GET', url: '/api/transactions' })).json();
    expect(list.find((c: { id: string }) => c.id === before.id).payoutRate).toBe('0.8800');
  });

  it('refuse a submission quoted at a rate that changed since (409), never a silent change', async () => {
    await setTerms('Nintendo', { rate: '0.86' });
    const stale = await submit({ cardType: 'Nintendo', quotedRate: '0.88' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(
      'The rate for Nintendo changed from 88% to 86% since the form was opened. Check the new payout and submit again.',
    );
    expect(stale.json().currentRate).toBe('0.86');
    const confirmed = await submit({ cardType: 'Nintendo', quotedRate: '0.86' });
    expect(confirmed.statusCode).toBe(201);
    expect(confirmed.json().expectedPayout).toBe('86.00');
  });

  it('check the brand’s current minimum, with the spec’s message', async () => {
    await setTerms('Xbox', { minimum: '40' });
    const low = await submit({ cardType: 'Xbox', cardValue: '30' });
    expect(low.statusCode).toBe(400);
    expect(low.json().errors).toEqual({ cardValue: 'Minimum value for this card type is $40' });
    const custom = await submit({ cardType: 'Corner Bakery', cardValue: '49' });
    expect(custom.json().errors).toEqual({ cardValue: 'Minimum value for this card type is $50' });
  });

  it('take new brands, retire them (and never Other), and bring them back', async () => {
    const added = await as(t.app, staff, {
      method: 'POST',
      url: '/api/admin/rates',
      payload: { brand: 'Apple Store', rate: '0.87', minimum: '25' },
    });
    expect(added.statusCode).toBe(201);
    expect((await publicRates()).json()).toContainEqual({
      brand: 'Apple Store',
      rate: '0.87',
      minimum: '25.00',
      tiers: [],
    });
    const twice = await as(t.app, staff, {
      method: 'POST',
      url: '/api/admin/rates',
      payload: { brand: 'apple store', rate: '0.5', minimum: '25' },
    });
    expect(twice.statusCode).toBe(409);
    // A custom type that names it now gets its terms.
    const card = await submit({ cardType: 'Apple Store', cardValue: '40' });
    expect(card.json().payoutRate).toBe('0.8700');

    expect((await setTerms('Apple Store', { retired: true })).statusCode).toBe(200);
    expect((await publicRates()).json().map((r: { brand: string }) => r.brand)).not.toContain(
      'Apple Store',
    );
    const refused = await submit({ cardType: 'Apple Store', cardValue: '40' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({ cardType: 'We no longer buy Apple Store gift cards.' });
    expect((await setTerms('Other', { retired: true })).statusCode).toBe(400);
    expect((await setTerms('Apple Store', { retired: false })).statusCode).toBe(200);
    expect((await submit({ cardType: 'Apple Store', cardValue: '40' })).statusCode).toBe(201);

    const all = await as(t.app, staff, { method: 'GET', url: '/api/admin/rates' });
    expect(all.json().find((r: { brand: string }) => r.brand === 'Apple Store')).toMatchObject({
      retired: false,
      rate: '0.87',
    });
    const actions = (await as(t.app, staff, { method: 'GET', url: '/api/admin/rates/history' }))
      .json()
      .filter((h: { brand: string }) => h.brand === 'Apple Store')
      .map((h: { action: string }) => h.action);
    expect(actions).toEqual(['restore', 'retire', 'create']);
  });

  describe('tiers (issue 41, decision 130)', () => {
    const tiers = [
      { format: 'egift', minValue: '0', maxValue: '99.99', rate: '0.70' },
      { format: 'egift', minValue: '100', maxValue: '499.99', rate: '0.82' },
      { format: 'any', minValue: '100', maxValue: null, rate: '0.86' },
      { format: 'physical', minValue: '500', maxValue: null, rate: '0.92' },
    ];

    it('are set by owners only, answered on /api/rates, and recorded in the history', async () => {
      const reviewer = await signInAs(t, 'reviewer');
      const refused = await setTerms('Steam', { tiers }, reviewer);
      expect(refused.statusCode).toBe(403);
      const set = await setTerms('Steam', { tiers });
      expect(set.statusCode).toBe(200);
      expect(set.json().tiers).toEqual([
        { format: 'egift', minValue: '0.00', maxValue: '99.99', rate: '0.70' },
        { format: 'any', minValue: '100.00', maxValue: null, rate: '0.86' },
        { format: 'egift', minValue: '100.00', maxValue: '499.99', rate: '0.82' },
        { format: 'physical', minValue: '500.00', maxValue: null, rate: '0.92' },
      ]);
      const steam = (await publicRates())
        .json()
        .find((r: { brand: string }) => r.brand === 'Steam');
      expect(steam.tiers).toHaveLength(4);
      const history = (await as(t.app, staff, { method: 'GET', url: '/api/admin/rates/history' }))
        .json()
        .find((h: { brand: string }) => h.brand === 'Steam');
      expect(history.changes.tiers.from).toEqual([]);
      expect(history.changes.tiers.to).toHaveLength(4);
      // The same set again changes nothing and records nothing.
      await setTerms('Steam', { tiers: [...tiers].reverse() });
      const count = (await as(t.app, staff, { method: 'GET', url: '/api/admin/rates/history' }))
        .json()
        .filter((h: { brand: string }) => h.brand === 'Steam').length;
      expect(count).toBe(1);
    });

    it('quote the most specific tier at each band edge, and the brand rate outside them', async () => {
      await setTerms('Google Play', { tiers, minimum: '10' });
      // A level-2 seller: the band edges are above a new account's limits.
      const seller = await signUp(t.app);
      await t.database.db
        .update(users)
        .set({ verificationLevel: 2 })
        .where(eq(users.id, seller.user.id));
      const submit = (body: object) => submitCard(t.app, seller, body);
      const cases: [string, string, string, string][] = [
        // format, value, rate, payout
        ['egift', '99.99', '0.7000', '69.99'],
        ['egift', '100', '0.8200', '82.00'],
        ['egift', '499.99', '0.8200', '409.99'],
        ['egift', '500', '0.8600', '430.00'],
        ['physical', '99.99', '0.8900', '88.99'],
        ['physical', '100', '0.8600', '86.00'],
        ['physical', '499.99', '0.8600', '429.99'],
        ['physical', '500', '0.9200', '460.00'],
      ];
      for (const [cardFormat, cardValue, rate, payout] of cases) {
        const card = await submit({ cardType: 'Google Play', cardFormat, cardValue });
        expect(card.statusCode, `${cardFormat} ${cardValue}`).toBe(201);
        expect(card.json().payoutRate, `${cardFormat} ${cardValue}`).toBe(rate);
        if (payout) expect(card.json().expectedPayout).toBe(payout);
      }
      const edge = (
        await submit({ cardType: 'Google Play', cardFormat: 'egift', cardValue: '100' })
      ).json();
      expect(edge.rateTier).toEqual({
        format: 'egift',
        minValue: '100.00',
        maxValue: '499.99',
        rate: '0.82',
      });
      const plain = (
        await submit({ cardType: 'Google Play', cardFormat: 'physical', cardValue: '50' })
      ).json();
      expect(plain.rateTier).toBeNull();
    });

    it('keep the brand minimum, honour the quoted tier rate, and refuse overlapping bands', async () => {
      await setTerms('Ebay', {
        tiers: [{ format: 'any', minValue: '0', maxValue: null, rate: '0.60' }],
      });
      const low = await submit({ cardType: 'Ebay', cardValue: '10' });
      expect(low.statusCode).toBe(400);
      const stale = await submit({ cardType: 'Ebay', quotedRate: brandRate('Ebay') });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().currentRate).toBe('0.60');
      const ok = await submit({ cardType: 'Ebay', quotedRate: '0.60' });
      expect(ok.statusCode).toBe(201);
      const overlap = await setTerms('Ebay', {
        tiers: [
          { format: 'egift', minValue: '0', maxValue: '100', rate: '0.5' },
          { format: 'egift', minValue: '100', maxValue: null, rate: '0.6' },
        ],
      });
      expect(overlap.statusCode).toBe(400);
      const upsideDown = await setTerms('Ebay', {
        tiers: [{ format: 'physical', minValue: '100', maxValue: '50', rate: '0.5' }],
      });
      expect(upsideDown.statusCode).toBe(400);
      // A band that is not an amount is the field's 400, not a 500 from comparing it (the fuzzer's find).
      for (const [minValue, maxValue] of [
        ['0', 'lots'],
        ['99.999', '499.99'],
      ]) {
        const bad = await setTerms('Ebay', {
          tiers: [{ format: 'physical', minValue, maxValue, rate: '0.5' }],
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().message).toBe('A tier value must be an amount with at most 2 decimals');
      }
      const removed = await setTerms('Ebay', { tiers: [] });
      expect(removed.json().tiers).toEqual([]);
    });
  });

  describe('alerts (issue 41, decision 132)', () => {
    const alertsOf = async (who: SignedIn) =>
      (await as(t.app, who, { method: 'GET', url: '/api/notifications' }))
        .json()
        .items.filter((n: { kind: string }) => n.kind === 'rate');
    const addAlert = (who: SignedIn, payload: object) =>
      as(t.app, who, { method: 'POST', url: '/api/rate-alerts', payload });

    it('tell the seller once per upward crossing, never on a change that stays above', async () => {
      const seller = await signUp(t.app);
      const created = await addAlert(seller, { brand: 'best buy', minRate: '0.90' });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ brand: 'Best Buy', format: null, minRate: '0.90' });
      await setTerms('Best Buy', { rate: '0.89' });
      expect(await alertsOf(seller)).toHaveLength(0);
      await setTerms('Best Buy', { rate: '0.90' });
      const told = await alertsOf(seller);
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({
        title: 'Best Buy now pays up to 90%',
        link: '/upload?brand=Best%20Buy',
      });
      await setTerms('Best Buy', { rate: '0.92' });
      expect(await alertsOf(seller)).toHaveLength(1);
      await setTerms('Best Buy', { rate: '0.85' });
      await setTerms('Best Buy', { rate: '0.91' });
      expect(await alertsOf(seller)).toHaveLength(2);
    });

    it('watch a format through its tiers, up to 20 each, deleted by their owner only', async () => {
      const seller = await signUp(t.app);
      const other = await signUp(t.app);
      const physical = await addAlert(seller, {
        brand: 'Adidas',
        format: 'physical',
        minRate: 0.9,
      });
      expect(physical.statusCode).toBe(201);
      await setTerms('Adidas', {
        tiers: [{ format: 'egift', minValue: '0', maxValue: null, rate: '0.95' }],
      });
      expect(await alertsOf(seller)).toHaveLength(0);
      await setTerms('Adidas', {
        tiers: [{ format: 'physical', minValue: '100', maxValue: null, rate: '0.93' }],
      });
      expect(await alertsOf(seller)).toHaveLength(1);

      expect((await addAlert(seller, { brand: 'No Such Brand', minRate: '0.9' })).statusCode).toBe(
        400,
      );
      for (let i = 1; i < 20; i++) {
        expect((await addAlert(seller, { brand: 'Nike', minRate: '0.95' })).statusCode).toBe(201);
      }
      const tooMany = await addAlert(seller, { brand: 'Nike', minRate: '0.95' });
      expect(tooMany.statusCode).toBe(409);
      const list = await as(t.app, seller, { method: 'GET', url: '/api/rate-alerts' });
      expect(list.json()).toHaveLength(20);
      const id = physical.json().id;
      const theirs = await as(t.app, other, { method: 'DELETE', url: `/api/rate-alerts/${id}` });
      expect(theirs.statusCode).toBe(404);
      const mine = await as(t.app, seller, { method: 'DELETE', url: `/api/rate-alerts/${id}` });
      expect(mine.statusCode).toBe(204);
      expect(
        (await as(t.app, seller, { method: 'GET', url: '/api/rate-alerts' })).json(),
      ).toHaveLength(19);
    });
  });
});
