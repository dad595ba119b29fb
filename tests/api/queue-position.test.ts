import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { setUpAppWithStaff } from './builders';
import { as, reviewCard, type SignedIn, signUp, submitCard } from './helpers';

/** A place in the queue (issue 41, item 4): each pending card's position and expected time. */

const { t, staff } = setUpAppWithStaff();

type Listed = {
  id: string;
  status: string;
  queue: { position: number; expectedDecisionAt: string } | null;
};
const list = async (who: SignedIn) =>
  (await as(t.app, who, { method: 'GET', url: '/api/transactions' })).json() as Listed[];

describe('a place in the queue', () => {
  it('numbers 50 pending cards oldest first, and moves them up as cards ahead are decided', async () => {
    const sellers = await Promise.all(Array.from({ length: 5 }, () => signUp(t.app)));
    for (const who of sellers) {
      await t.database.db
        .update(users)
        .set({ verificationLevel: 2 })
        .where(eq(users.id, who.user.id));
    }
    // Submitted one after another, round robin over the sellers: card i is the i-th in line.
    const order: { id: string; who: SignedIn }[] = [];
    for (let i = 0; i < 50; i++) {
      const who = sellers[i % 5]!;
      const response = await submitCard(t.app, who, { cardValue: '50' });
      expect(response.statusCode).toBe(201);
      order.push({ id: response.json().id, who });
    }
    const place = async () => {
      const all = (await Promise.all(sellers.map(list))).flat();
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
