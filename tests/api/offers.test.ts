import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sendDueNotificationEmails } from '../../src/server/common/notify';
import { auditLog } from '../../src/server/db/schema';
import { expireOffers } from '../../src/server/modules/cards';
import { expectedPayout } from '../../src/shared/money';
import { setUpAppWithMail } from './builders';
import {
  as,
  reviewCard,
  type SignedIn,
  sessionFor,
  signInAs,
  signUp,
  submitCard,
  uniqueEmail,
} from './helpers';

const { mail, t, staff } = setUpAppWithMail();

const HOUR = 60 * 60 * 1000;

async function customerWithCard(body: object = {}) {
  const email = uniqueEmail();
  const customer = await signUp(t.app, { email });
  const response = await submitCard(t.app, customer, body);
  expect(response.statusCode, response.body).toBe(201);
  return { email, customer, card: response.json() as { id: string; expectedPayout: string } };
}

const review = (id: string, payload: object, who: SignedIn = staff) =>
  reviewCard(t.app, who, id, payload);
const offer = (
  id: string,
  payload: object = { verifiedValue: '40.00', note: 'Balance is $40' },
  who: SignedIn = staff,
) => as(t.app, who, { method: 'POST', url: `/api/admin/transactions/${id}/offer`, payload });
const answer = (who: SignedIn, id: string, choice: 'accept' | 'decline') =>
  as(t.app, who, { method: 'POST', url: `/api/transactions/${id}/offer/${choice}` });
const cardOf = async (who: SignedIn, id: string) =>
  (await as(t.app, who, { method: 'GET', url: '/api/transactions' }))
    .json()
    .find((c: { id: string }) => c.id === id);
const staffCardOf = async (id: string) =>
  (await as(t.app, staff, { method: 'GET', url: `/api/admin/transactions/${id}` })).json();
const actionsOf = async (id: string) =>
  (await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, id)))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .map((row) => row.action);

describe('the quote is a promise', () => {
  it('refuses a payment amount below the quote with below_quote, and accepts the quote', async () => {
    const { card } = await customerWithCard();
    expect(card.expectedPayout).toBe('91.00');
    for (const amount of ['0.01', '90.99', '50']) {
      const below = await review(card.id, { status: 'completed', paymentAmount: amount });
      expect(below.statusCode, amount).toBe(409);
      expect(below.json()).toMatchObject({ code: 'below_quote' });
      expect(below.json().message).toMatch(/below the quoted payout/);
    }
    expect((await staffCardOf(card.id)).status).toBe('pending');
    expect(await actionsOf(card.id)).toEqual([]);

    const quote = await review(card.id, { status: 'completed', paymentAmount: '91.00' });
    expect(quote.statusCode).toBe(200);
    expect(quote.json()).toMatchObject({
      status: 'completed',
      paymentAmount: '91.00',
      offer: null,
    });
  });
});

describe('a card pays at most its value × its rate (decision 106)', () => {
  const overValue = (response: { statusCode: number; json: () => unknown }, field: string) => {
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'over_value',
      errors: { [field]: expect.stringMatching(/^At most \$/) },
    });
  };

  it('refuses a payment amount or an offer above it with 400 over_value, writing nothing', async () => {
    const reviewer = await signInAs(t, 'reviewer');
    const { card } = await customerWithCard();
    const big = await review(card.id, { paymentAmount: '999999.99' }, reviewer);
    overValue(big, 'paymentAmount');
    expect(big.json().errors.paymentAmount).toBe('At most $91.00');
    expect(big.json().message).toBe(
      'The payment amount is above what this card pays ($91.00: its value × its rate). Only an owner can pay more, with a reason.',
    );
    overValue(await review(card.id, { paymentAmount: '91.01' }, reviewer), 'paymentAmount');
    overValue(
      await offer(card.id, { verifiedValue: '100000', note: 'More' }, reviewer),
      'verifiedValue',
    );
    overValue(
      await offer(card.id, { verifiedValue: '100.02', note: 'More' }, reviewer),
      'verifiedValue',
    );
    // A reason is an owner's to give.
    const reasoned = await review(
      card.id,
      { paymentAmount: '95.50', overValueReason: 'Goodwill' },
      reviewer,
    );
    expect(reasoned.statusCode).toBe(403);
    expect(reasoned.json().code).toBe('forbidden_role');
    // The owner too needs one.
    overValue(await review(card.id, { paymentAmount: '95.50' }), 'paymentAmount');
    expect(await staffCardOf(card.id)).toMatchObject({
      paymentAmount: null,
      offer: null,
      overValue: null,
    });
    expect(await actionsOf(card.id)).toEqual([]);

    // An accepted offer is the ceiling then.
    const { customer, card: offered } = await customerWithCard();
    expect((await offer(offered.id)).statusCode).toBe(201);
    expect((await answer(customer, offered.id, 'accept')).statusCode).toBe(200);
    overValue(await review(offered.id, { paymentAmount: '91.00' }, reviewer), 'paymentAmount');
    expect((await review(offered.id, { paymentAmount: '36.40' }, reviewer)).statusCode).toBe(200);
  });

  it('lets an owner pay or offer more with a reason: audited, shown on the card, and paid', async () => {
    const { card } = await customerWithCard();
    const reason = 'The retailer added a $5 bonus to the balance';
    const paid = await review(card.id, {
      status: 'processing',
      paymentAmount: '95.50',
      overValueReason: `  ${reason} `,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const [row] = await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, card.id));
    expect(row!.changes).toMatchObject({
      paymentAmount: { from: null, to: '95.50' },
      overValueReason: { from: null, to: reason },
    });
    expect((await staffCardOf(card.id)).overValue).toEqual({
      amount: '95.50',
      ceiling: '91.00',
      reason,
      by: staff.user.email,
      at: row!.createdAt.toISOString(),
    });
    const marked = await as(t.app, staff, {
      method: 'POST',
      url: '/api/admin/payouts/mark-sent',
      payload: { items: [{ id: card.id, amount: '95.50' }] },
    });
    expect(marked.json()).toMatchObject({ sent: [{ id: card.id, amount: '95.50' }] });

    const { card: other } = await customerWithCard();
    const made = await offer(other.id, {
      verifiedValue: '120',
      note: 'The balance is $120',
      overValueReason: 'Balance checked with the retailer',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect((await staffCardOf(other.id)).overValue).toMatchObject({
      amount: '109.20',
      ceiling: '91.00',
      reason: 'Balance checked with the retailer',
    });
  });
});

describe('revised offers', () => {
  it('offers the verified value at the card’s own rate, even after the brand’s rate changed', async () => {
    const { customer, card } = await customerWithCard({ cardType: 'Nike', cardValue: '100' });
    const before = await cardOf(customer, card.id);
    const changed = await as(t.app, staff, {
      method: 'PUT',
      url: '/api/admin/rates/Nike',
      payload: { rate: '0.5' },
    });
    expect(changed.statusCode).toBe(200);

    const made = await offer(card.id, { verifiedValue: '40', note: 'The balance is $40.00' });
    expect(made.statusCode, made.body).toBe(201);
    // 40.00 × the card's stored rate, not the brand's new 0.5.
    const amount = expectedPayout('40.00', before.payoutRate);
    expect(amount).toBe('34.80');
    expect(made.json()).toEqual({
      offer: {
        verifiedValue: '40.00',
        amount,
        status: 'pending',
        expiresAt: new Date(
          new Date(made.json().offer.createdAt).getTime() + 72 * HOUR,
        ).toISOString(),
        note: 'The balance is $40.00',
        createdAt: expect.any(String),
        decidedAt: null,
      },
    });
    expect(made.json().offer.amount).not.toBe('20.00');

    // The card stays in review, and both sides carry the offer.
    const mine = await cardOf(customer, card.id);
    expect(mine).toMatchObject({ status: 'processing', offer: made.json().offer });
    expect((await staffCardOf(card.id)).offer).toEqual(made.json().offer);
  });

  it('tells the customer in a notification and by email, and audits the offer', async () => {
    const { email, customer, card } = await customerWithCard();
    expect((await offer(card.id)).statusCode).toBe(201);
    const [notice] = (
      await as(t.app, customer, { method: 'GET', url: '/api/notifications' })
    ).json().items;
    expect(notice).toMatchObject({
      kind: 'transaction',
      title: 'Amazon card of $100.00: Revised offer',
      link: `/history?card=${card.id}`,
    });
    expect(notice.body).toMatch(
      /^Revised offer: \$36\.40 for a \$40\.00 balance\. Balance is \$40\./,
    );
    // The deadline in the one shape dates are written everywhere (MMM dd, yyyy hh:mm a).
    expect(notice.body).toMatch(
      /Accept or decline by [A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} [AP]M UTC;/,
    );
    await sendDueNotificationEmails(t.app);
    await t.app.mail.deliverDue();
    const sent = await mail.waitFor(email, /Revised offer/);
    expect(sent.text).toContain('Revised offer: $36.40 for a $40.00 balance');
    expect(await actionsOf(card.id)).toEqual(['offer']);
  });

  it('refuses a second offer while one waits, an offer equal to the balance, and a paid card', async () => {
    const { card } = await customerWithCard();
    const same = await offer(card.id, { verifiedValue: '100.00', note: 'same' });
    expect(same.statusCode).toBe(400);
    expect(same.json().errors.verifiedValue).toMatch(/no revised offer is needed/);
    for (const payload of [{ verifiedValue: '0', note: 'x' }, { verifiedValue: '40' }, {}]) {
      expect((await offer(card.id, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await offer(card.id)).statusCode).toBe(201);
    const again = await offer(card.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'offer_pending' });
    // Nor can staff decide the card or its money while the customer has an offer to answer.
    const early = await review(card.id, { status: 'completed' });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'offer_pending' });

    const paid = await customerWithCard();
    await review(paid.card.id, { status: 'completed', paymentStatus: 'sent' });
    expect((await offer(paid.card.id)).json()).toMatchObject({ code: 'not_offerable' });
    expect((await offer('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await offer('nope')).statusCode).toBe(404);
  });

  it('holds the payment while the offer waits: not awaiting payment, not in payouts, not markable sent', async () => {
    const { customer, card } = await customerWithCard();
    await review(card.id, { status: 'processing' });
    const stats = async () =>
      (await as(t.app, customer, { method: 'GET', url: '/api/stats' })).json().awaitingPayment;
    const listed = async () =>
      JSON.stringify((await as(t.app, staff, { method: 'GET', url: '/api/admin/payouts' })).json());
    expect(await stats()).toBe('91.00');
    expect(await listed()).toContain(card.id);
    await offer(card.id);
    expect(await stats()).toBe('0.00');
    expect(await listed()).not.toContain(card.id);
    const marked = await as(t.app, staff, {
      method: 'POST',
      url: '/api/admin/payouts/mark-sent',
      payload: { items: [{ id: card.id, amount: '91.00' }] },
    });
    expect(marked.json().skipped).toMatchObject([{ id: card.id, reason: 'not_payable' }]);
    await answer(customer, card.id, 'accept');
    expect(await stats()).toBe('36.40');
    expect(await listed()).toContain(card.id);
  });

  it('accepting sets the payment amount to the offer, after which staff may pay it', async () => {
    const { customer, card } = await customerWithCard();
    await offer(card.id);
    const accepted = await answer(customer, card.id, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      id: card.id,
      status: 'processing',
      paymentAmount: '36.40',
      offer: { status: 'accepted', amount: '36.40', decidedAt: expect.any(String) },
    });
    // The accepted offer is the floor now: not below it, and paying it is allowed.
    const below = await review(card.id, { paymentAmount: '30.00' });
    expect(below.json()).toMatchObject({ code: 'below_quote' });
    const paid = await review(card.id, { status: 'completed', paymentStatus: 'sent' });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ paymentAmount: '36.40', paymentStatus: 'sent' });
    expect(await actionsOf(card.id)).toEqual(['offer', 'offer_accepted', 'update']);
    expect((await answer(customer, card.id, 'decline')).statusCode).toBe(409);
  });

  it('declining rejects the card as balance differs, offer declined', async () => {
    const { customer, card } = await customerWithCard();
    await offer(card.id);
    const declined = await answer(customer, card.id, 'decline');
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toMatchObject({
      status: 'rejected',
      rejectionReason: 'balance_differs',
      rejectionNote: 'offer declined',
      paymentAmount: null,
      offer: { status: 'declined' },
    });
    expect(await actionsOf(card.id)).toEqual(['offer', 'offer_declined']);
    // A later note by staff keeps the rejection's note.
    const noted = await review(card.id, { adminNotes: 'Customer declined by phone too' });
    expect(noted.json()).toMatchObject({
      rejectionReason: 'balance_differs',
      rejectionNote: 'offer declined',
    });
  });

  it('lets exactly one of accept and decline sent at once win', async () => {
    for (let round = 0; round < 3; round++) {
      const { customer, card } = await customerWithCard();
      await offer(card.id);
      const results = await Promise.all([
        answer(customer, card.id, 'accept'),
        answer(customer, card.id, 'decline'),
        answer(customer, card.id, 'accept'),
      ]);
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 409, 409]);
      const actions = await actionsOf(card.id);
      expect(actions).toHaveLength(2);
    }
  });

  it('answers another customer’s card as one that does not exist, and refuses staff', async () => {
    const { card } = await customerWithCard();
    await offer(card.id);
    const stranger = await signUp(t.app);
    expect((await answer(stranger, card.id, 'accept')).statusCode).toBe(404);
    expect((await answer(staff, card.id, 'accept')).statusCode).toBe(403);
    expect((await answer(stranger, 'nope', 'decline')).statusCode).toBe(404);
    const customer = await signUp(t.app);
    expect(
      (
        await as(t.app, customer, {
          method: 'POST',
          url: `/api/admin/transactions/${card.id}/offer`,
        })
      ).statusCode,
    ).toBe(403);
  });

  it('expires an unanswered offer after 72 hours by the app’s clock, rejecting the card', async () => {
    const { customer, card } = await customerWithCard();
    await offer(card.id);
    // Sessions idle out over such spans: the customer signs in again (a session made as of now).
    const again = async () => ({
      ...customer,
      cookie: await sessionFor(t, { kind: 'user', id: customer.user.id }),
    });
    t.advance(71 * HOUR);
    expect(await t.app.run(expireOffers)).toBe(0);
    expect((await cardOf(await again(), card.id)).offer.status).toBe('pending');

    t.advance(1 * HOUR + 1000);
    const fresh = await again();
    // Too late to accept, even before the job has run.
    const late = await answer(fresh, card.id, 'accept');
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'offer_expired' });
    expect(await t.app.run(expireOffers)).toBeGreaterThanOrEqual(1);
    expect(await cardOf(fresh, card.id)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'balance_differs',
      rejectionNote: 'offer expired',
      offer: { status: 'expired' },
    });
    const [notice] = (await as(t.app, fresh, { method: 'GET', url: '/api/notifications' })).json()
      .items;
    expect(notice.title).toBe('Amazon card of $100.00: Offer expired');
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, card.id));
    expect(rows.find((r) => r.action === 'offer_expired')).toMatchObject({
      actorKind: 'system',
      actorEmail: 'system',
    });
    // The job is done with it.
    expect(await t.app.run(expireOffers)).toBe(0);
  });
});
