import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, ledgerEntries } from '../../src/server/db/schema';
import { setUpStaffAs, submittedCard } from './builders';
import { as, reviewCard, type SignedIn, setUpTestApp, signUp } from './helpers';
import { openEvents } from './live-helpers';

/** Issue 43 item 19, decision 135: a seller withdraws a pending card not yet opened for review. */
const t = setUpTestApp();
const reviewer = setUpStaffAs(t, 'reviewer');
const owner = setUpStaffAs(t, 'owner');

const sellerWithCard = (cardValue = '100') => submittedCard(t, { cardValue });

const withdraw = (who: SignedIn, id: string) =>
  as(t.app, who, { method: 'POST', url: `/api/transactions/${id}/withdraw` });
const claim = (who: SignedIn, id: string) =>
  as(t.app, who, { method: 'POST', url: `/api/admin/transactions/${id}/claim` });
const usage = async (who: SignedIn) =>
  (await as(t.app, who, { method: 'GET', url: '/api/verification' })).json().limits;
const inQueue = async (id: string) =>
  (
    await as(t.app, reviewer, {
      method: 'GET',
      url: '/api/admin/transactions?status=pending&limit=100',
    })
  )
    .json()
    .some((row: { id: string }) => row.id === id);

describe('POST /api/transactions/:id/withdraw', () => {
  it('withdraws a pending card: audited, out of the queue, its value back in the limits, the books untouched', async () => {
    const { who, id } = await sellerWithCard('300');
    expect(await usage(who)).toMatchObject({ usedDay: '300.00' });
    expect(await inQueue(id)).toBe(true);

    const response = await withdraw(who, id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id, status: 'withdrawn', paymentStatus: 'pending' });

    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'withdraw')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorEmail: who.user.email,
      changes: { status: { from: 'pending', to: 'withdrawn' } },
    });
    expect(await inQueue(id)).toBe(false);
    expect(await usage(who)).toMatchObject({ usedDay: '0.00', used30Days: '0.00' });
    expect(
      await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.transactionId, id)),
    ).toEqual([]);

    const timeline = await as(t.app, who, {
      method: 'GET',
      url: `/api/transactions/${id}/timeline`,
    });
    expect(timeline.json().map((s: { step: string }) => s.step)).toEqual([
      'submitted',
      'withdrawn',
    ]);
    const mine = await as(t.app, who, { method: 'GET', url: '/api/transactions' });
    expect(mine.json().find((c: { id: string }) => c.id === id).status).toBe('withdrawn');
    const stats = (await as(t.app, who, { method: 'GET', url: '/api/stats' })).json();
    expect(stats.pending).toBe(0);
  });

  it('is final: later 409 not_withdrawable; staff can neither claim nor change it', async () => {
    const { who, id } = await sellerWithCard();
    expect((await withdraw(who, id)).statusCode).toBe(200);
    const again = await withdraw(who, id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'not_withdrawable' });

    const claimed = await claim(reviewer, id);
    expect(claimed.statusCode).toBe(409);
    expect(claimed.json()).toMatchObject({ code: 'withdrawn' });
    const approved = await reviewCard(t.app, owner, id, { status: 'processing' });
    expect(approved.statusCode).toBe(409);
    expect(approved.json()).toMatchObject({ code: 'withdrawn' });
    const row = await as(t.app, owner, { method: 'GET', url: `/api/admin/transactions/${id}` });
    expect(row.json().status).toBe('withdrawn');
  });

  it('refuses a card a reviewer holds, a decided card, and anyone else’s card', async () => {
    const held = await sellerWithCard();
    expect((await claim(reviewer, held.id)).statusCode).toBe(200);
    const refused = await withdraw(held.who, held.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'not_withdrawable' });
    expect(refused.json().message).toContain('can no longer be withdrawn');

    const decided = await sellerWithCard();
    expect(
      (await reviewCard(t.app, reviewer, decided.id, { status: 'processing' })).statusCode,
    ).toBe(200);
    expect((await withdraw(decided.who, decided.id)).json()).toMatchObject({
      code: 'not_withdrawable',
    });

    const other = await sellerWithCard();
    const stranger = await signUp(t.app);
    expect((await withdraw(stranger, other.id)).statusCode).toBe(404);
    expect((await withdraw(stranger, 'not-a-uuid')).statusCode).toBe(404);
    expect((await withdraw(reviewer, other.id)).statusCode).toBe(403);
    expect(
      (
        await as(t.app, undefined, {
          method: 'POST',
          url: `/api/transactions/${other.id}/withdraw`,
        })
      ).statusCode,
    ).toBe(401);
  });

  it('a withdrawal and a reviewer’s claim sent at once: exactly one wins, every time', async () => {
    const cards = await Promise.all([1, 2, 3, 4, 5, 6].map(() => sellerWithCard()));
    const results = await Promise.all(
      cards.map(async ({ who, id }) => {
        const [w, c] = await Promise.all([withdraw(who, id), claim(reviewer, id)]);
        return { id, withdrawn: w.statusCode, claimed: c.statusCode, w: w.json(), c: c.json() };
      }),
    );
    for (const r of results) {
      expect([r.withdrawn, r.claimed].sort()).toEqual([200, 409]);
      const row = (
        await as(t.app, owner, { method: 'GET', url: `/api/admin/transactions/${r.id}` })
      ).json();
      if (r.withdrawn === 200) {
        expect(r.c.code).toBe('withdrawn');
        expect(row.status).toBe('withdrawn');
        expect(row.claimedBy).toBeNull();
      } else {
        expect(r.w.code).toBe('not_withdrawable');
        expect(row.status).toBe('pending');
        expect(row.claimedBy?.id).toBe(reviewer.user.id);
      }
    }
  });

  it('two withdrawals at once: one 200, one 409, one audit row', async () => {
    const { who, id } = await sellerWithCard();
    const answers = await Promise.all([withdraw(who, id), withdraw(who, id), withdraw(who, id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'withdraw')));
    expect(audit).toHaveLength(1);
  });

  it('staff hear the queue change live', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { who, id } = await sellerWithCard();
    const events = await openEvents(base, reviewer.cookie);
    try {
      expect((await withdraw(who, id)).statusCode).toBe(200);
      await events.waitFor('queue');
      expect(events.names()).toContain('queue');
    } finally {
      events.close();
    }
  });
});
