import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clawbacks } from '../../src/server/db/schema';
import { checkLedger } from '../../src/server/modules/ledger';
import { markSent, payoutListRow, setUpAppWithStaff, submittedCard } from './builders';
import { addPaymentMethod, as, reviewCard, type SignedIn, signInAs, signUp } from './helpers';

const { t, staff: owner } = setUpAppWithStaff();

const get = (who: SignedIn | undefined, url: string) => as(t.app, who, { method: 'GET', url });
const post = (who: SignedIn | undefined, url: string, payload?: object) =>
  as(t.app, who, { method: 'POST', url, payload });

/** A card of `cardValue` submitted by `who` (Amazon, 91%), and its id. */
async function submit(who: SignedIn, cardValue = '100') {
  const method = await addPaymentMethod(t.app, who, {
    identifier: `${who.user.id.slice(0, 6)}@example.com`,
  });
  return (await submittedCard(t, { cardValue, paymentMethodId: method.id }, who)).id;
}

async function review(id: string, payload: object) {
  const response = await reviewCard(t.app, owner, id, payload);
  expect(response.statusCode, response.body).toBe(200);
}

/** A card of `who`'s approved and paid in full (91.00 for $100). */
async function paidCard(who: SignedIn, cardValue = '100') {
  const id = await submit(who, cardValue);
  await review(id, { status: 'processing' });
  await markSent(t, owner, id);
  return id;
}

const payoutRow = (id: string) => payoutListRow(t, owner, id);

describe('taking money back', () => {
  it('is for a paid card only, and never more than it paid, however many are sent at once', async () => {
    const who = await signUp(t.app);
    const unpaid = await submit(who);
    const refused = await post(owner, `/api/admin/transactions/${unpaid}/clawback`, {
      amount: '10.00',
      reason: 'already_redeemed',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'not_paid' });

    const id = await paidCard(who);
    const tooMuch = await post(owner, `/api/admin/transactions/${id}/clawback`, {
      amount: '91.01',
      reason: 'already_redeemed',
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toMatchObject({
      code: 'over_paid',
      errors: { amount: 'At most $91.00' },
    });

    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        post(owner, `/api/admin/transactions/${id}/clawback`, {
          amount: '40.00',
          reason: 'balance_differs',
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 400, 400, 400]);
    expect(answers.find((a) => a.statusCode === 201)!.json()).toMatchObject({
      amount: '40.00',
      reason: 'balance_differs',
      status: 'open',
    });
    // The rest can still be taken: 11.00.
    const rest = await post(owner, `/api/admin/transactions/${id}/clawback`, {
      amount: '11.00',
      reason: 'other',
      note: 'Fee charged by the brand',
    });
    expect(rest.statusCode).toBe(201);
    expect((await get(who, '/api/balance')).json()).toEqual({
      owed: '0.00',
      onTheWay: '0.00',
      paid: '91.00',
      owedBack: '91.00',
    });
    const other = await post(owner, `/api/admin/transactions/${id}/clawback`, {
      amount: '1',
      reason: 'other',
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().errors).toEqual({ note: 'Say why in the note' });
    // The payment the money was taken back from stands: it cannot be set back, nor its amount changed.
    for (const change of [
      { paymentStatus: 'pending' },
      { paymentAmount: '95.00', overValueReason: 'Bonus' },
    ]) {
      const { updatedAt } = (await get(owner, `/api/admin/transactions/${id}`)).json();
      const refused = await as(t.app, owner, {
        method: 'PATCH',
        url: `/api/admin/transactions/${id}`,
        payload: { ...change, expectedUpdatedAt: updatedAt },
      });
      expect(refused.statusCode, JSON.stringify(change)).toBe(409);
      expect(refused.json().code).toBe('clawed_back');
    }
    expect(await checkLedger(t.database.db)).toEqual([]);
  });

  it('tells the seller why and how much, in the app and on their statement', async () => {
    const who = await signUp(t.app);
    const id = await paidCard(who);
    const response = await post(owner, `/api/admin/transactions/${id}/clawback`, {
      amount: '91.00',
      reason: 'already_redeemed',
      note: 'The brand reports it was spent on Nov 20.',
    });
    expect(response.statusCode).toBe(201);
    const { items } = (await get(who, '/api/notifications')).json();
    expect(items[0]).toMatchObject({
      title: 'Amazon card of $100.00: $91.00 taken back',
      body: expect.stringContaining(
        'Card already redeemed. The brand reports it was spent on Nov 20.',
      ),
      link: `/history?card=${id}`,
    });
    const statement = (await get(who, '/api/balance/statement')).json();
    expect(statement.items[0]).toMatchObject({
      kind: 'clawback',
      description: 'Taken back: card already redeemed (card Amazon $100.00)',
      amount: '-91.00',
      balance: '-91.00',
    });
    const shown = (await get(owner, `/api/admin/transactions/${id}/clawbacks`)).json();
    expect(shown).toEqual([
      expect.objectContaining({
        amount: '91.00',
        outstanding: '91.00',
        status: 'open',
        reason: 'already_redeemed',
      }),
    ]);
  });

  it('nets what is owed back against the next two cards, whatever order they are paid in', async () => {
    const who = await signUp(t.app);
    const first = await paidCard(who);
    await post(owner, `/api/admin/transactions/${first}/clawback`, {
      amount: '91.00',
      reason: 'already_redeemed',
    });
    const b = await submit(who, '50'); // 45.50
    const c = await submit(who, '100'); // 91.00
    await review(b, { status: 'processing' });
    await review(c, { status: 'processing' });
    // The oldest card settles what is owed back first: B all of its 45.50, C the other 45.50.
    expect(await payoutRow(b)).toMatchObject({ amount: '0.00', netted: '45.50' });
    expect(await payoutRow(c)).toMatchObject({ amount: '45.50', netted: '45.50' });

    // Paid newest first, with the amounts the list showed.
    const sentC = await post(owner, '/api/admin/payouts/mark-sent', {
      items: [{ id: c, amount: '45.50' }],
    });
    expect(sentC.json().sent).toEqual([{ id: c, amount: '45.50' }]);
    expect((await get(who, '/api/balance')).json()).toMatchObject({
      owed: '45.50',
      owedBack: '45.50',
    });
    expect(await payoutRow(b)).toMatchObject({ amount: '0.00', netted: '45.50' });
    const sentB = await post(owner, '/api/admin/payouts/mark-sent', {
      items: [{ id: b, amount: '0.00' }],
    });
    expect(sentB.json().sent).toEqual([{ id: b, amount: '0.00' }]);

    expect((await get(who, '/api/balance')).json()).toEqual({
      owed: '0.00',
      onTheWay: '0.00',
      paid: '227.50',
      owedBack: '0.00',
    });
    const lines = (await get(who, '/api/balance/statement'))
      .json()
      .items.map((i: Record<string, string>) => [i.description, i.amount, i.balance]);
    expect(lines.slice(0, 4)).toEqual([
      ['Card Amazon $50.00: $45.50 of its payout set against what you owed back', '0.00', '0.00'],
      [expect.stringMatching(/^Paid to PayPal .{4}…$/), '-45.50', '0.00'],
      ['Card Amazon $100.00: $45.50 of its payout set against what you owed back', '0.00', '45.50'],
      ['Card Amazon $100.00 approved', '91.00', '45.50'],
    ]);
    const [clawback] = await t.database.db
      .select()
      .from(clawbacks)
      .where(eq(clawbacks.transactionId, first));
    expect(clawback!.status).toBe('settled');
    expect(await checkLedger(t.database.db)).toEqual([]);
  });

  it('is written off by finance once, to losses', async () => {
    const who = await signUp(t.app);
    const id = await paidCard(who);
    const clawback = (
      await post(owner, `/api/admin/transactions/${id}/clawback`, {
        amount: '30.00',
        reason: 'chargeback',
      })
    ).json();
    const finance = await signInAs(t, 'finance');
    const before = (await get(finance, '/api/admin/ledger/trial-balance')).json();
    const losses = (tb: { accounts: { code: string; balance: string }[] }) =>
      tb.accounts.find((a) => a.code === 'losses')?.balance ?? '0.00';
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        post(finance, `/api/admin/clawbacks/${clawback.id}/write-off`, {
          note: 'Seller closed the account',
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(answers.find((a) => a.statusCode === 200)!.json()).toMatchObject({
      status: 'written_off',
      outstanding: '0.00',
    });
    expect((await get(who, '/api/balance')).json()).toMatchObject({ owedBack: '0.00' });
    const after = (await get(finance, '/api/admin/ledger/trial-balance')).json();
    expect(Number(losses(after)) - Number(losses(before))).toBeCloseTo(30, 2);
    expect(after.balanced).toBe(true);
    expect(
      (await post(finance, `/api/admin/clawbacks/${clawback.id}/write-off`, { note: ' ' }))
        .statusCode,
    ).toBe(400);
  });

  it('is for finance and owners only', async () => {
    const who = await signUp(t.app);
    const id = await paidCard(who);
    for (const role of ['reviewer', 'support'] as const) {
      const staff = await signInAs(t, role);
      const response = await post(staff, `/api/admin/transactions/${id}/clawback`, {
        amount: '1.00',
        reason: 'chargeback',
      });
      expect(response.statusCode, role).toBe(403);
      expect(response.json().code).toBe('forbidden_role');
    }
    expect(
      (
        await post(who, `/api/admin/transactions/${id}/clawback`, {
          amount: '1.00',
          reason: 'chargeback',
        })
      ).statusCode,
    ).toBe(403);
  });

  it('can be appealed by the seller, which holds its netting until staff decide', async () => {
    const who = await signUp(t.app);
    const first = await paidCard(who);
    await post(owner, `/api/admin/transactions/${first}/clawback`, {
      amount: '91.00',
      reason: 'already_redeemed',
    });
    const appeal = (id: string) =>
      post(who, `/api/transactions/${id}/appeal`, {
        message: 'I never used this card',
        imageUrls: [],
      });
    const decide = (id: string, decision: string) =>
      post(owner, `/api/admin/transactions/${id}/appeal/decision`, {
        decision,
        note: 'Checked with the brand',
      });
    const appealed = await appeal(first);
    expect(appealed.statusCode, appealed.body).toBe(201);
    // While the appeal waits, the next card is paid in full.
    const next = await submit(who, '50');
    await review(next, { status: 'processing' });
    expect(await payoutRow(next)).toMatchObject({ amount: '45.50', netted: '0.00' });
    expect((await decide(first, 'overturned')).statusCode).toBe(200);
    expect((await get(who, '/api/balance')).json()).toMatchObject({
      owedBack: '0.00',
      owed: '45.50',
    });
    expect((await get(owner, `/api/admin/transactions/${first}/clawbacks`)).json()).toEqual([
      expect.objectContaining({ status: 'reversed', outstanding: '0.00' }),
    ]);
    const [line] = (await get(who, '/api/balance/statement')).json().items;
    expect(line).toMatchObject({
      kind: 'clawback_reversed',
      description: 'Appeal accepted: the $91.00 taken back is no longer owed',
      amount: '91.00',
    });

    // Upheld, the clawback stands and is netted again; a card whose clawback was netted cannot be appealed.
    const other = await signUp(t.app);
    const paid = await paidCard(other);
    await post(owner, `/api/admin/transactions/${paid}/clawback`, {
      amount: '20.00',
      reason: 'chargeback',
    });
    // Another seller's card is one that does not exist.
    expect((await appeal(paid)).statusCode).toBe(404);
    const theirs = (id: string) =>
      post(other, `/api/transactions/${id}/appeal`, {
        message: 'Please check again',
        imageUrls: [],
      });
    expect((await theirs(paid)).statusCode).toBe(201);
    expect((await decide(paid, 'upheld')).statusCode).toBe(200);
    const later = await submit(other, '50');
    await review(later, { status: 'processing' });
    expect(await payoutRow(later)).toMatchObject({ amount: '25.50', netted: '20.00' });
    const paidTwice = await paidCard(other);
    await post(owner, `/api/admin/transactions/${paidTwice}/clawback`, {
      amount: '30.00',
      reason: 'chargeback',
    });
    await post(owner, '/api/admin/payouts/mark-sent', { items: [{ id: later, amount: '0.00' }] });
    const refused = await theirs(paidTwice);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('not_appealable');
    expect(await checkLedger(t.database.db)).toEqual([]);
  });

  it('counts towards the automatic suspension as a fraud rejection does', async () => {
    const who = await signUp(t.app);
    for (let i = 0; i < 3; i++) {
      const id = await paidCard(who);
      await post(owner, `/api/admin/transactions/${id}/clawback`, {
        amount: '5.00',
        reason: 'already_redeemed',
      });
    }
    expect((await get(who, '/api/auth/user')).json()).toMatchObject({ standing: 'suspended' });
  });
});
