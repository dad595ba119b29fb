import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { findTransaction } from '../../src/server/modules/cards/queries';
import { setUpAppWithStaff } from './builders';
import { as, reviewCard, type SignedIn, signUp, submitCard } from './helpers';
import { openEvents } from './live-helpers';

/** A place in the queue (issue 41, item 4): each pending card's position and expected time. */

const { t, staff } = setUpAppWithStaff();

type Listed = {
  id: string;
  status: string;
  queue: { position: number; expectedDecisionAt: string } | null;
};
const list = async (who: SignedIn) =>
  (await as(t.app, who, { method: 'GET', url: '/api/transactions' })).json() as Listed[];

/** Sellers at level 2, whose cards the selling limits let through. */
async function sellers(count: number) {
  const who = await Promise.all(Array.from({ length: count }, () => signUp(t.app)));
  for (const seller of who) {
    await t.database.db
      .update(users)
      .set({ verificationLevel: 2 })
      .where(eq(users.id, seller.user.id));
  }
  return who;
}

/** Each seller's one card, submitted in turn: the i-th seller's is i-th in line. */
async function oneCardEach(who: SignedIn[]) {
  const ids: string[] = [];
  for (const seller of who)
    ids.push((await submitCard(t.app, seller, { cardValue: '50' })).json().id);
  return ids;
}

/** Where the seller's one card stands, and the list's ETag. */
async function placeOf(who: SignedIn, etag?: string) {
  const response = await as(t.app, who, {
    method: 'GET',
    url: '/api/transactions',
    headers: etag ? { 'if-none-match': etag } : {},
  });
  return {
    status: response.statusCode,
    etag: response.headers.etag as string,
    position:
      response.statusCode === 200 ? (response.json() as Listed[])[0]!.queue?.position : undefined,
  };
}

describe('a place in the queue', () => {
  it('numbers 50 pending cards oldest first, and moves them up as cards ahead are decided', async () => {
    const five = await sellers(5);
    // Submitted one after another, round robin over the sellers: card i is the i-th in line.
    const order: { id: string; who: SignedIn }[] = [];
    for (let i = 0; i < 50; i++) {
      const who = five[i % 5]!;
      const response = await submitCard(t.app, who, { cardValue: '50' });
      expect(response.statusCode).toBe(201);
      order.push({ id: response.json().id, who });
    }
    const place = async () => {
      const all = (await Promise.all(five.map(list))).flat();
      return new Map(all.map((c) => [c.id, c.queue]));
    };
    const before = await place();
    expect(order.map((c) => before.get(c.id)?.position)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    // Without staff decisions in 24 hours, the review target per card ahead: 120 minutes each.
    const times = order.map((c) => Date.parse(before.get(c.id)!.expectedDecisionAt));
    for (let i = 1; i < 50; i++) expect(times[i]! - times[i - 1]!).toBeCloseTo(120 * 60_000, -3);

    // Staff decide the first and the tenth: every card behind them moves up, on every seller's
    // list (the last seller has no card decided, and still hears of it).
    await reviewCard(t.app, staff, order[0]!.id, { status: 'processing' });
    await reviewCard(t.app, staff, order[9]!.id, {
      status: 'rejected',
      rejectionReason: 'image_unreadable',
    });
    const after = await place();
    expect(after.get(order[0]!.id)).toBeNull();
    expect(after.get(order[9]!.id)).toBeNull();
    expect(after.get(order[1]!.id)?.position).toBe(1);
    expect(after.get(order[8]!.id)?.position).toBe(8);
    expect(after.get(order[10]!.id)?.position).toBe(9);
    expect(after.get(order[49]!.id)?.position).toBe(48);
    // Two staff decisions in 24 hours: 720 minutes per card ahead.
    const first = Date.parse(after.get(order[1]!.id)!.expectedDecisionAt);
    const second = Date.parse(after.get(order[2]!.id)!.expectedDecisionAt);
    expect(second - first).toBeCloseTo(720 * 60_000, -3);
  }, 120_000); // 50 cards submitted and decided one by one: minutes on a busy machine
});

/**
 * However a card leaves the line ahead or comes back into it, the cards behind move, on lists
 * already answered and kept (decision 155: each instance reads the queue's places again when
 * staff's queue changes, and changes the lists of the sellers whose cards moved).
 */
describe('a place in the queue, moved by any way in or out of it', () => {
  it('moves on a withdrawal ahead, and back on a card sent back to pending ahead', async () => {
    const [first, second, third] = await sellers(3);
    const [firstCard, secondCard] = await oneCardEach([first!, second!, third!]);
    // Cards of this file's other tests wait ahead: places are counted from the second card's.
    const kept = await placeOf(third!);
    const secondPlace = (await placeOf(second!)).position!;
    expect(kept.position).toBe(secondPlace + 1);
    // Kept: the same list again is a 304 from memory.
    expect((await placeOf(third!, kept.etag)).status).toBe(304);

    // The first seller withdraws: nothing of the third seller's changed but their place.
    expect(
      (await as(t.app, first, { method: 'POST', url: `/api/transactions/${firstCard}/withdraw` }))
        .statusCode,
    ).toBe(200);
    const afterWithdrawal = await placeOf(third!, kept.etag);
    expect(afterWithdrawal).toMatchObject({ status: 200, position: secondPlace });
    expect((await placeOf(second!)).position).toBe(secondPlace - 1);

    // Staff take the second card into processing, then send it back: it takes its place again.
    await reviewCard(t.app, staff, secondCard!, { status: 'processing' });
    const whileProcessing = await placeOf(third!, afterWithdrawal.etag);
    expect(whileProcessing).toMatchObject({ status: 200, position: secondPlace - 1 });
    await reviewCard(t.app, staff, secondCard!, { status: 'pending' });
    expect(await placeOf(third!, whileProcessing.etag)).toMatchObject({
      status: 200,
      position: secondPlace,
    });
    expect((await placeOf(second!)).position).toBe(secondPlace - 1);
  });

  it('holds when withdrawals and decisions arrive all at once: every kept list ends at its counted place', async () => {
    const who = await sellers(12);
    const cards = await oneCardEach(who);
    const kept = await Promise.all(who.map((seller) => placeOf(seller)));
    const withdrawn = [0, 3, 6];
    const processed = [1, 4, 7];
    const answers = await Promise.all([
      ...withdrawn.map((i) =>
        as(t.app, who[i], { method: 'POST', url: `/api/transactions/${cards[i]}/withdraw` }),
      ),
      ...processed.map((i) => reviewCard(t.app, staff, cards[i]!, { status: 'processing' })),
    ]);
    for (const answer of answers) expect(answer.statusCode).toBe(200);
    for (const [i, seller] of who.entries()) {
      if (withdrawn.includes(i) || processed.includes(i)) continue;
      // Every card left has the first card, withdrawn, ahead of it: every kept list moved.
      const now = await placeOf(seller, kept[i]!.etag);
      expect(now.status).toBe(200);
      // The place the database counts for the card alone (findTransaction, the old path).
      expect(now.position).toBe((await findTransaction(t.database.db, cards[i]!))!.queuePosition);
      expect(now.position).toBe(
        kept[i]!.position! - [...withdrawn, ...processed].filter((j) => j < i).length,
      );
    }
  });

  it('tells the open page of a seller behind, who changed nothing', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const [ahead, behind] = await sellers(2);
    const [aheadCard] = await oneCardEach([ahead!, behind!]);
    expect((await placeOf(behind!)).position).toBeGreaterThan(0);
    const events = await openEvents(base, behind!.cookie);
    try {
      await events.waitFor('ready');
      await reviewCard(t.app, staff, aheadCard!, { status: 'processing' });
      await events.waitFor('transactions');
      expect(events.names()).toEqual(['ready', 'transactions']);
    } finally {
      events.close();
    }
  });
});
