import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { paymentMethods, users } from '../../src/server/db/schema';
import { setUpAppWithStaff } from './builders';
import {
  addPaymentMethod,
  as,
  reviewCard,
  type SignedIn,
  sessionCookie,
  signInStaff,
  signUp,
  submitCard,
  uniqueEmail,
} from './helpers';
import { setUpMailServer } from './mail-server';

const mail = setUpMailServer();
const { t, staff } = setUpAppWithStaff(() => ({
  ...mail.appConfig(),
  verification: {
    documentRetentionDays: 90,
    payoutHoldNewMethodHours: 24,
    payoutHoldNewAccountHours: 48,
  },
}));
const HOUR_MS = 60 * 60 * 1000;
const PASSWORD = 'correct horse battery';

/** Moves a customer's account and methods `hours` into the past. */
async function olderBy(who: SignedIn, hours: number) {
  const back = sql`make_interval(hours => ${hours})`;
  await t.database.db
    .update(users)
    .set({ createdAt: sql`${users.createdAt} - ${back}` })
    .where(eq(users.id, who.user.id));
  await t.database.db
    .update(paymentMethods)
    .set({
      createdAt: sql`${paymentMethods.createdAt} - ${back}`,
      payeeChangedAt: sql`${paymentMethods.payeeChangedAt} - ${back}`,
    })
    .where(eq(paymentMethods.userId, who.user.id));
}

async function approvedCard(who: SignedIn, methodId: string) {
  const card = await submitCard(t.app, who, { paymentMethodId: methodId });
  expect(card.statusCode, card.body).toBe(201);
  const id = card.json().id as string;
  const approve = await reviewCard(t.app, staff, id, { status: 'processing' });
  expect(approve.statusCode).toBe(200);
  return id;
}

const pay = (id: string) => reviewCard(t.app, staff, id, { paymentStatus: 'sent' });
const detail = async (id: string) =>
  (await as(t.app, staff, { method: 'GET', url: `/api/admin/transactions/${id}` })).json();
const payouts = async () =>
  (await as(t.app, staff, { method: 'GET', url: '/api/admin/payouts' })).json();

describe('payout holds', () => {
  it('holds a payout to a method edited 1 hour ago until 24 hours after the edit, then pays it', async () => {
    const who = await signUp(t.app);
    const method = await addPaymentMethod(t.app, who);
    await olderBy(who, 72);
    const id = await approvedCard(who, method.id);
    expect((await detail(id)).payoutHoldUntil).toBeNull();

    const edited = await as(t.app, who, {
      method: 'PATCH',
      url: `/api/payment-methods/${method.id}`,
      payload: {
        type: 'paypal',
        accountName: 'Casey Customer',
        identifier: 'attacker@example.com',
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // The edit was an hour ago (staff sessions would not outlive moving the clock).
    await t.database.db
      .update(paymentMethods)
      .set({ payeeChangedAt: new Date(t.now() - HOUR_MS) })
      .where(eq(paymentMethods.id, method.id));

    const editedAt = (
      await t.database.db
        .select({ at: paymentMethods.payeeChangedAt })
        .from(paymentMethods)
        .where(eq(paymentMethods.id, method.id))
    )[0]!.at;
    const until = new Date(editedAt.getTime() + 24 * HOUR_MS).toISOString();
    expect((await detail(id)).payoutHoldUntil).toBe(until);
    const queue = (
      await as(t.app, staff, { method: 'GET', url: '/api/admin/transactions?limit=100' })
    ).json();
    expect(queue.find((c: { id: string }) => c.id === id).payoutHoldUntil).toBe(until);

    const refused = await pay(id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'payout_hold', until });
    expect(refused.json().message).toMatch(/payee details changed recently/);

    const list = await payouts();
    const listed = list.groups.flatMap((g: { cards: { id: string }[] }) => g.cards);
    expect(listed.map((c: { id: string }) => c.id)).not.toContain(id);
    expect(list.held.find((h: { id: string }) => h.id === id)).toMatchObject({
      reason: 'new_method',
      payoutHoldUntil: until,
    });
    const batch = await as(t.app, staff, {
      method: 'POST',
      url: '/api/admin/payouts/mark-sent',
      payload: { items: [{ id, amount: '91.00' }] },
    });
    expect(batch.json().skipped).toMatchObject([{ id, reason: 'payout_hold' }]);

    // Making it the default is not a new payee: the hold stays where it was.
    await as(t.app, who, {
      method: 'PATCH',
      url: `/api/payment-methods/${method.id}`,
      payload: {
        type: 'paypal',
        accountName: 'Casey Customer',
        identifier: 'attacker@example.com',
        isDefault: true,
      },
    });
    expect((await detail(id)).payoutHoldUntil).toBe(until);
    // 24 hours after the edit, the hold is over.
    await olderBy(who, 23);
    await t.database.db
      .update(paymentMethods)
      .set({ payeeChangedAt: sql`${paymentMethods.payeeChangedAt} - interval '1 minute'` })
      .where(eq(paymentMethods.id, method.id));
    expect((await detail(id)).payoutHoldUntil).toBeNull();
    const paid = await pay(id);
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('holds a new account’s payouts until it is 48 hours old', async () => {
    const who = await signUp(t.app);
    const method = await addPaymentMethod(t.app, who);
    // The method is old enough; the account is not.
    await t.database.db
      .update(paymentMethods)
      .set({ payeeChangedAt: new Date(t.now() - 30 * HOUR_MS) })
      .where(eq(paymentMethods.id, method.id));
    const id = await approvedCard(who, method.id);
    const [user] = await t.database.db
      .select({ createdAt: users.createdAt })
      .from(users)
      .where(eq(users.id, who.user.id));
    const until = new Date(user!.createdAt.getTime() + 48 * HOUR_MS).toISOString();
    expect((await detail(id)).payoutHoldUntil).toBe(until);
    expect((await pay(id)).json()).toMatchObject({ code: 'payout_hold', until });
    expect((await payouts()).held.find((h: { id: string }) => h.id === id).reason).toBe(
      'new_account',
    );
    await olderBy(who, 48);
    expect((await pay(id)).statusCode).toBe(200);
  });
});

describe('step-up for payment methods', () => {
  it('refuses a change without a recent password (401 reauth_required), then allows it after POST /api/reauth', async () => {
    const email = uniqueEmail();
    const who = await signUp(t.app, { email, password: PASSWORD });
    // Signed in with the password: fresh for 10 minutes.
    const method = await addPaymentMethod(t.app, who);
    t.advance(10 * 60 * 1000 + 1000);
    const write = () =>
      as(t.app, who, {
        method: 'POST',
        url: '/api/payment-methods',
        payload: { type: 'paypal', accountName: 'Casey', identifier: 'casey2@example.com' },
      });
    const refused = await write();
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'reauth_required' });
    const edit = await as(t.app, who, {
      method: 'PATCH',
      url: `/api/payment-methods/${method.id}`,
      payload: { type: 'paypal', accountName: 'Casey', identifier: 'x@example.com' },
    });
    expect(edit.statusCode).toBe(401);
    const remove = await as(t.app, who, {
      method: 'DELETE',
      url: `/api/payment-methods/${method.id}`,
    });
    expect(remove.statusCode).toBe(401);
    // Reading stays open.
    expect((await as(t.app, who, { method: 'GET', url: '/api/payment-methods' })).statusCode).toBe(
      200,
    );

    const wrong = await as(t.app, who, {
      method: 'POST',
      url: '/api/reauth',
      payload: { password: 'not my password' },
    });
    expect(wrong.statusCode).toBe(400);
    expect((await write()).statusCode).toBe(401);
    const noTwoFactor = await as(t.app, who, {
      method: 'POST',
      url: '/api/reauth',
      payload: { code: '123456' },
    });
    expect(noTwoFactor.statusCode).toBe(400);

    const reauth = await as(t.app, who, {
      method: 'POST',
      url: '/api/reauth',
      payload: { password: PASSWORD },
    });
    expect(reauth.statusCode, reauth.body).toBe(200);
    const freshFor = Date.parse(reauth.json().freshUntil) - t.now();
    expect(freshFor).toBeGreaterThan(10 * 60 * 1000 - 5000);
    expect(freshFor).toBeLessThanOrEqual(10 * 60 * 1000);
    expect((await write()).statusCode).toBe(201);

    t.advance(10 * 60 * 1000 + 1000);
    expect((await write()).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/reauth', payload: {} })).statusCode,
    ).toBe(401);
  });

  it('keeps freshness to the session that gave the password', async () => {
    const email = uniqueEmail();
    const who = await signUp(t.app, { email, password: PASSWORD });
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/signin',
      payload: { email, password: PASSWORD },
    });
    const second: SignedIn = { cookie: sessionCookie(signin)!, user: who.user };
    t.advance(11 * 60 * 1000);
    await as(t.app, second, {
      method: 'POST',
      url: '/api/reauth',
      payload: { password: PASSWORD },
    });
    const body = { type: 'paypal', accountName: 'Casey', identifier: 'c3@example.com' };
    const fromFirst = await as(t.app, who, {
      method: 'POST',
      url: '/api/payment-methods',
      payload: body,
    });
    expect(fromFirst.statusCode).toBe(401);
    const fromSecond = await as(t.app, second, {
      method: 'POST',
      url: '/api/payment-methods',
      payload: body,
    });
    expect(fromSecond.statusCode).toBe(201);
  });

  it('emails every payment-method change', async () => {
    const email = uniqueEmail();
    const who = await signUp(t.app, { email });
    const method = await addPaymentMethod(t.app, who);
    await as(t.app, who, {
      method: 'PATCH',
      url: `/api/payment-methods/${method.id}`,
      payload: { type: 'paypal', accountName: 'Casey Customer', identifier: 'new@example.com' },
    });
    const other = await addPaymentMethod(t.app, who, { identifier: 'other@example.com' });
    await as(t.app, who, { method: 'DELETE', url: `/api/payment-methods/${other.id}` });
    await t.app.mail.deliverDue();
    const added = await mail.waitFor(email, /payout method was added/);
    expect(added.text).toMatch(/If this wasn't you/);
    expect(added.text).toMatch(/payouts to it wait 24 hours/);
    await mail.waitFor(email, /payout method was changed/);
    await mail.waitFor(email, /payout method was removed/);
    expect(mail.to(email).filter((m) => /payout method/.test(m.subject))).toHaveLength(4);
  });
});

describe("the seller's own cards say when the payout can go (issue 43 item 17)", () => {
  // The tests above move the clock past the first staff session: sign staff in again.
  beforeAll(async () => {
    Object.assign(staff, await signInStaff(t, uniqueEmail('staff-again')));
  });
  const mine = async (who: SignedIn, id: string, url = '/api/transactions') => {
    const r = await as(t.app, who, { method: 'GET', url });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().find((c: { id: string }) => c.id === id);
  };

  it('a new account: payoutHoldUntil is 48 hours after sign-up, with the reason, on the list, the recent list and the submission', async () => {
    const who = await signUp(t.app);
    const method = await addPaymentMethod(t.app, who);
    const created = (
      await t.database.db
        .select({ at: users.createdAt })
        .from(users)
        .where(eq(users.id, who.user.id))
    )[0]!.at;
    const until = new Date(created.getTime() + 48 * HOUR_MS).toISOString();
    const id = await approvedCard(who, method.id);
    expect(await mine(who, id)).toMatchObject({
      payoutHoldUntil: until,
      payoutHoldReason: 'new_account',
    });
    expect(await mine(who, id, '/api/transactions/recent')).toMatchObject({
      payoutHoldUntil: until,
    });
    // The staff view says the same time.
    expect((await detail(id)).payoutHoldUntil).toBe(until);
  });

  it('a method whose payee changed an hour ago on an old account: 24 hours after the change; null once nothing holds it or the card is paid or rejected', async () => {
    const who = await signUp(t.app);
    const method = await addPaymentMethod(t.app, who);
    await olderBy(who, 72);
    const id = await approvedCard(who, method.id);
    expect(await mine(who, id)).toMatchObject({ payoutHoldUntil: null, payoutHoldReason: null });

    const changedAt = new Date(t.now() - HOUR_MS);
    await t.database.db
      .update(paymentMethods)
      .set({ payeeChangedAt: changedAt })
      .where(eq(paymentMethods.id, method.id));
    // A card submitted now, so that the cached list is read again.
    const second = await approvedCard(who, method.id);
    const until = new Date(changedAt.getTime() + 24 * HOUR_MS).toISOString();
    expect(await mine(who, second)).toMatchObject({
      payoutHoldUntil: until,
      payoutHoldReason: 'new_method',
    });
    const rejected = await reviewCard(t.app, staff, second, {
      status: 'rejected',
      rejectionReason: 'code_invalid',
    });
    expect(rejected.statusCode).toBe(200);
    expect(await mine(who, second)).toMatchObject({ payoutHoldUntil: null });
  });
});
