import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema';
import { setUpAppWithMail } from './builders';
import {
  as,
  reviewCard,
  type SignedIn,
  sessionFor,
  signUp,
  submitCard,
  uploadCardImage,
} from './helpers';

const { mail, t, staff } = setUpAppWithMail();
const DAY = 24 * 60 * 60 * 1000;

async function rejectedCard() {
  const customer = await signUp(t.app);
  const card = (await submitCard(t.app, customer)).json() as { id: string };
  const rejected = await reviewCard(t.app, staff, card.id, {
    status: 'rejected',
    rejectionReason: 'code_invalid',
  });
  expect(rejected.statusCode).toBe(200);
  return { customer, card };
}

const appeal = (who: SignedIn, id: string, payload: object = { message: 'The code works.' }) =>
  as(t.app, who, { method: 'POST', url: `/api/transactions/${id}/appeal`, payload });
const decide = (id: string, payload: object, who: SignedIn = staff) =>
  as(t.app, who, {
    method: 'POST',
    url: `/api/admin/transactions/${id}/appeal/decision`,
    payload,
  });
const queue = async (query: string, who: SignedIn = staff) =>
  (await as(t.app, who, { method: 'GET', url: `/api/admin/transactions${query}` })).json() as {
    id: string;
    appeal: { status: string } | null;
  }[];

describe('appeals (decision 073)', () => {
  it('lets the customer appeal a rejection with a message and photos, once; staff find it in the Appeals filter', async () => {
    const { customer, card } = await rejectedCard();
    const photo = await uploadCardImage(t.app, customer, 'card-back.png');
    const made = await appeal(customer, card.id, {
      message: '  The balance is on the back, see photo.  ',
      imageUrls: [photo],
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({
      id: card.id,
      status: 'rejected',
      appeal: {
        status: 'pending',
        message: 'The balance is on the back, see photo.',
        imageUrls: [photo],
        createdAt: expect.any(String),
        decidedAt: null,
        note: null,
      },
    });
    // Once: a second appeal, even sent twice at once, is refused.
    const again = await Promise.all([appeal(customer, card.id), appeal(customer, card.id)]);
    for (const r of again) {
      expect(r.statusCode).toBe(409);
      expect(r.json().code).toBe('appeal_exists');
    }
    const summary = await as(t.app, staff, { method: 'GET', url: '/api/admin/review-summary' });
    expect(summary.json().appealsPending).toBeGreaterThanOrEqual(1);
    const pending = await queue('?appeal=pending&limit=100');
    expect(pending.map((r) => r.id)).toContain(card.id);
    expect(pending.every((r) => r.appeal?.status === 'pending')).toBe(true);
    expect((await queue('?appeal=upheld&limit=100')).map((r) => r.id)).not.toContain(card.id);
    const bad = await as(t.app, staff, {
      method: 'GET',
      url: '/api/admin/transactions?appeal=maybe',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('lists waiting appeals oldest first, page by page, and emails staff of each', async () => {
    const cards: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { customer, card } = await rejectedCard();
      t.advance(60_000);
      expect((await appeal(customer, card.id)).statusCode).toBe(201);
      cards.push(card.id);
    }
    const all = (await queue('?appeal=pending&limit=100')).map((r) => r.id);
    const ours = all.filter((id) => cards.includes(id));
    expect(ours).toEqual(cards);
    // Page by page (one a page), the same order.
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await as(t.app, staff, {
        method: 'GET',
        url: `/api/admin/transactions?appeal=pending&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      });
      walked.push(...(page.json() as { id: string }[]).map((r) => r.id));
      cursor = page.headers['x-next-cursor'] as string | undefined;
    } while (cursor);
    expect(walked).toEqual(all);
    // Staff are told by email of each appeal.
    await t.app.mail.deliverDue();
    await mail.waitFor(staff.user.email, /appealed/);
    for (const id of cards) {
      await expect
        .poll(() =>
          mail.received.some(
            (m) =>
              m.to.includes(staff.user.email) &&
              /appealed/.test(m.subject) &&
              m.text.includes(id.slice(0, 8)),
          ),
        )
        .toBe(true);
    }
  });

  it('lets exactly one of two appeals sent at once through', async () => {
    const { customer, card } = await rejectedCard();
    const results = await Promise.all([appeal(customer, card.id), appeal(customer, card.id)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('refuses a card not rejected, another customer’s card (404), staff, and bad input', async () => {
    const customer = await signUp(t.app);
    const card = (await submitCard(t.app, customer)).json();
    const notRejected = await appeal(customer, card.id);
    expect(notRejected.statusCode).toBe(409);
    expect(notRejected.json().code).toBe('not_rejected');

    const other = await rejectedCard();
    expect((await appeal(customer, other.card.id)).statusCode).toBe(404);
    expect((await appeal(customer, 'nope')).statusCode).toBe(404);
    expect((await appeal(staff, other.card.id)).statusCode).toBe(403);
    for (const payload of [
      {},
      { message: '   ' },
      { message: 'x'.repeat(2001) },
      { message: 'ok', imageUrls: ['a', 'b', 'c', 'd', 'e'] },
    ]) {
      expect((await appeal(other.customer, other.card.id, payload)).statusCode).toBe(400);
    }
    // Photos must be the customer's own, unused uploads.
    const theirs = await uploadCardImage(t.app, customer);
    const stolen = await appeal(other.customer, other.card.id, {
      message: 'see photo',
      imageUrls: [theirs],
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().errors).toEqual({
      imageUrls: 'Each image must be one you uploaded for this card and not used by another card',
    });
    expect((await appeal(other.customer, other.card.id)).statusCode).toBe(201);
  });

  it('upholds with a note required, and the decision is final', async () => {
    const { customer, card } = await rejectedCard();
    await appeal(customer, card.id);
    const noNote = await decide(card.id, { decision: 'upheld' });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().errors.note).toBe('A note is required when the rejection is upheld');
    const upheld = await decide(card.id, {
      decision: 'upheld',
      note: 'The code was redeemed on 3 May.',
    });
    expect(upheld.statusCode).toBe(200);
    expect(upheld.json()).toMatchObject({
      status: 'rejected',
      appeal: {
        status: 'upheld',
        note: 'The code was redeemed on 3 May.',
        decidedAt: expect.any(String),
      },
    });
    expect((await decide(card.id, { decision: 'overturned' })).json().code).toBe(
      'appeal_not_pending',
    );
    expect((await appeal(customer, card.id)).statusCode).toBe(409);
    const [notice] = (
      await as(t.app, customer, { method: 'GET', url: '/api/notifications' })
    ).json().items;
    expect(notice.title).toBe('Amazon card of $100.00: Appeal upheld');
    expect(notice.body).toContain('The code was redeemed on 3 May.');
  });

  it('overturning returns the card to review, not to payment, with the appeal’s note, audited and told', async () => {
    const { customer, card } = await rejectedCard();
    await appeal(customer, card.id);
    const note = 'The balance shows on the retailer’s site: check the code again.';
    const overturned = await decide(card.id, { decision: 'overturned', note });
    expect(overturned.statusCode).toBe(200);
    expect(overturned.json()).toMatchObject({
      status: 'pending',
      paymentStatus: 'pending',
      rejectionReason: null,
      rejectionNote: null,
      appeal: { status: 'overturned', message: 'The code works.', note },
    });
    // Back in the queue for a fresh review, and not payable.
    const waiting = await queue('?status=pending&limit=100');
    expect(waiting.map((r) => r.id)).toContain(card.id);
    const payouts = (await as(t.app, staff, { method: 'GET', url: '/api/admin/payouts' })).json();
    const payable = payouts.groups.flatMap((g: { cards: { id: string }[] }) => g.cards);
    expect(payable.map((c: { id: string }) => c.id)).not.toContain(card.id);
    const mine = (await as(t.app, customer, { method: 'GET', url: '/api/transactions' }))
      .json()
      .find((c: { id: string }) => c.id === card.id);
    expect(mine).toMatchObject({ status: 'pending', appeal: { status: 'overturned', note } });
    // The history says what happened and why.
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, card.id));
    expect(rows.map((r) => r.action).sort()).toEqual(['appeal', 'appeal_decision', 'update']);
    expect(rows.find((r) => r.action === 'appeal_decision')!.changes).toEqual({
      appealStatus: { from: 'pending', to: 'overturned' },
      appealNote: { from: null, to: note },
      status: { from: 'rejected', to: 'pending' },
      rejectionReason: { from: 'code_invalid', to: null },
    });
    const steps = (
      await as(t.app, staff, { method: 'GET', url: `/api/admin/transactions/${card.id}/timeline` })
    ).json();
    expect(steps.slice(-2)).toMatchObject([
      { step: 'appeal_decided', detail: `Overturned: the card is back in review. ${note}` },
      { step: 'in_review' },
    ]);
    const [notice] = (
      await as(t.app, customer, { method: 'GET', url: '/api/notifications' })
    ).json().items;
    expect(notice.title).toBe('Amazon card of $100.00: Appeal overturned');
    expect(notice.body).toBe(`Your appeal was accepted: the card is back in review. ${note}`);
    const customerDecides = await decide(card.id, { decision: 'overturned' }, customer);
    expect(customerDecides.statusCode).toBe(403);
  });

  it('refuses an appeal more than 14 days after the rejection, by the app’s clock', async () => {
    const { customer, card } = await rejectedCard();
    t.advance(14 * DAY + 60_000);
    const again = {
      ...customer,
      cookie: await sessionFor(t, { kind: 'user', id: customer.user.id }),
    };
    const late = await appeal(again, card.id);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      code: 'appeal_window_closed',
      message: 'A rejection can be appealed within 14 days',
    });
  });
});
