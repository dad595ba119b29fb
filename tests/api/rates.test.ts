import { beforeAll, describe, expect, it } from 'vitest';
import { BRANDS, brandRate, seedMinimum } from '../../src/shared/brands';
import { as, type SignedIn, setUpStaff, setUpTestApp, signUp, submitCard } from './helpers';

const t = setUpTestApp();
const staff = setUpStaff(t);
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
      .map(({ i: _i, ...terms }) => terms);
    expect(response.json()).toEqual(expected);
    expect(response.json()).toHaveLength(47);
    expect(response.json()[0]).toEqual({ brand: 'Amazon', rate: '0.91', minimum: '25.00' });
    expect(response.json().at(-1)).toEqual({ brand: 'Other', rate: '0.85', minimum: '50.00' });
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
    expect(changed.json()).toEqual({ brand: 'Visa', rate: '0.905', minimum: '30.00' });
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
});
