import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { scamCheckRefusals, transactions } from '../../src/server/db/schema';
import { setUpAppWithStaff } from './builders';
import { as, signUp, submitCard } from './helpers';

const { t, staff } = setUpAppWithStaff();

const usersList = async () =>
  (await as(t.app, staff, { method: 'GET', url: '/api/admin/users?limit=100' })).json();

describe('the scam question at submission', () => {
  it('refuses scamCheck yes with 422, buys nothing, and records the attempt for staff', async () => {
    const customer = await signUp(t.app);
    const refused = await submitCard(t.app, customer, { scamCheck: 'yes' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'scam_check',
      message: expect.stringMatching(/scam/),
      errors: { scamCheck: expect.stringMatching(/reportfraud\.ftc\.gov/) },
    });
    const rows = await t.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.userId, customer.user.id));
    expect(rows).toEqual([]);
    const recorded = await t.database.db
      .select()
      .from(scamCheckRefusals)
      .where(eq(scamCheckRefusals.userId, customer.user.id));
    expect(recorded).toMatchObject([{ cardType: 'Amazon', cardValue: '100' }]);
    const listed = (await usersList()).find((u: { id: string }) => u.id === customer.user.id);
    expect(listed).toMatchObject({
      scamCheckRefusals: 1,
      lastScamCheckRefusalAt: expect.any(String),
    });
  });

  it('accepts no, and a request without the field (older clients), which staff see marked', async () => {
    const customer = await signUp(t.app);
    const no = await submitCard(t.app, customer, { scamCheck: 'no' });
    expect(no.statusCode).toBe(201);
    const absent = await submitCard(t.app, customer);
    expect(absent.statusCode).toBe(201);
    const staffView = async (id: string) =>
      (await as(t.app, staff, { method: 'GET', url: `/api/admin/transactions/${id}` })).json();
    expect((await staffView(no.json().id)).scamCheck).toBe('no');
    expect((await staffView(absent.json().id)).scamCheck).toBeNull();
    // The customer's own answer does not carry it.
    expect(no.json()).not.toHaveProperty('scamCheck');
    const listed = (await usersList()).find((u: { id: string }) => u.id === customer.user.id);
    expect(listed.scamCheckRefusals).toBe(0);
  });

  it('refuses any other answer as a bad request', async () => {
    const customer = await signUp(t.app);
    for (const scamCheck of ['maybe', true, 1, '']) {
      const bad = await submitCard(t.app, customer, { scamCheck });
      expect(bad.statusCode, String(scamCheck)).toBe(400);
      expect(bad.json().errors.scamCheck).toBe("scamCheck must be 'no' or 'yes'");
    }
  });
});
