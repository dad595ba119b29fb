import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema';
import { CLAIM_MINUTES } from '../../src/shared/admin';
import { setUpStaffAs, submittedCard } from './builders';
import { as, reviewCard, type SignedIn, setUpTestApp } from './helpers';

const t = setUpTestApp();
const alice = setUpStaffAs(t, 'reviewer');
const bob = setUpStaffAs(t, 'owner');
const finance = setUpStaffAs(t, 'finance');

const newCard = () => submittedCard(t);

const claim = (who: SignedIn, id: string, payload?: object) =>
  as(t.app, who, { method: 'POST', url: `/api/admin/transactions/${id}/claim`, payload });
const release = (who: SignedIn, id: string) =>
  as(t.app, who, { method: 'DELETE', url: `/api/admin/transactions/${id}/claim` });
const save = (who: SignedIn, id: string, payload: object) => reviewCard(t.app, who, id, payload);
const queueRow = async (who: SignedIn, id: string) =>
  (await as(t.app, who, { method: 'GET', url: '/api/admin/transactions?limit=100' }))
    .json()
    .find((row: { id: string }) => row.id === id);
const takeOvers = (id: string) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'take_over')));

describe('claimed reviews (decision 078)', () => {
  it('claims a card for 15 minutes; another reviewer is refused with who holds it, and sees it in the queue', async () => {
    const card = await newCard();
    const first = await claim(alice, card.id);
    expect(first.statusCode, first.body).toBe(200);
    const { claimedBy, claimedUntil } = first.json();
    expect(claimedBy.id).toBe(alice.user.id);
    expect(new Date(claimedUntil).getTime() - t.now()).toBeGreaterThan(
      (CLAIM_MINUTES - 1) * 60_000,
    );
    // Claiming again (the dialog still open) renews it.
    expect((await claim(alice, card.id)).statusCode).toBe(200);

    const second = await claim(bob, card.id);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'claimed', by: { id: alice.user.id } });
    expect(second.json().message).toContain('is reviewing this card');
    expect((await queueRow(bob, card.id)).claimedBy).toEqual(claimedBy);

    // A save by the other reviewer is refused too, and changes nothing.
    const refused = await save(bob, card.id, { status: 'processing' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'claimed', by: { id: alice.user.id } });
    expect((await queueRow(bob, card.id)).status).toBe('pending');
    expect(claimedBy.name).not.toBe('');
  });

  it('releases the claim on save and on close', async () => {
    const card = await newCard();
    expect((await claim(alice, card.id)).statusCode).toBe(200);
    const saved = await save(alice, card.id, { adminNotes: 'Checked the balance' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().claimedBy).toBeNull();
    expect((await claim(bob, card.id)).statusCode).toBe(200);

    // Closing: only the holder's release ends it.
    expect((await release(alice, card.id)).json()).toEqual({ released: false });
    expect((await claim(alice, card.id)).statusCode).toBe(409);
    expect((await release(bob, card.id)).json()).toEqual({ released: true });
    expect((await queueRow(alice, card.id)).claimedBy).toBeNull();
    expect((await claim(alice, card.id)).statusCode).toBe(200);
  });

  it('lets a reviewer take over, with an audit row, on claim or on save', async () => {
    const card = await newCard();
    expect((await claim(alice, card.id)).statusCode).toBe(200);
    const taken = await claim(bob, card.id, { takeOver: true });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().claimedBy.id).toBe(bob.user.id);
    expect(await takeOvers(card.id)).toHaveLength(1);

    // Alice saves over Bob's claim only by saying so.
    expect((await save(alice, card.id, { status: 'processing' })).statusCode).toBe(409);
    const saved = await save(alice, card.id, { status: 'processing', takeOver: true });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().status).toBe('processing');
    const audits = await takeOvers(card.id);
    expect(audits).toHaveLength(2);
    expect(audits.map((a) => a.actorId).sort()).toEqual([alice.user.id, bob.user.id].sort());
  });

  it('lapses after 15 minutes without activity', async () => {
    const card = await newCard();
    expect((await claim(alice, card.id)).statusCode).toBe(200);
    t.advance((CLAIM_MINUTES - 1) * 60_000);
    expect((await claim(bob, card.id)).statusCode).toBe(409);
    t.advance(2 * 60_000);
    expect((await queueRow(bob, card.id)).claimedBy).toBeNull();
    expect((await save(bob, card.id, { adminNotes: 'Taking it' })).statusCode).toBe(200);
    expect((await claim(bob, card.id)).statusCode).toBe(200);
    expect(await takeOvers(card.id)).toHaveLength(0);
  });

  it('gives a card claimed by two reviewers at once to exactly one', async () => {
    const card = await newCard();
    const answers = await Promise.all([claim(alice, card.id), claim(bob, card.id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.statusCode === 200)!.json().claimedBy.id;
    const loser = answers.find((a) => a.statusCode === 409)!.json();
    expect(loser.by.id).toBe(winner);
    expect((await queueRow(alice, card.id)).claimedBy.id).toBe(winner);
  });

  it('is for reviewers: finance reads the card but cannot claim it; unknown cards are 404', async () => {
    const card = await newCard();
    const refused = await claim(finance, card.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('forbidden_role');
    expect((await claim(alice, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await claim(alice, 'not-a-card')).statusCode).toBe(404);
    expect((await claim(alice, card.id, { takeOver: 'yes' })).statusCode).toBe(400);
    expect(
      (
        await as(t.app, undefined, {
          method: 'POST',
          url: `/api/admin/transactions/${card.id}/claim`,
        })
      ).statusCode,
    ).toBe(401);
  });
});
