import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { feedback, transactions } from '../../src/server/db/schema';
import { setUpAppWithStaff, withAppAndStaff } from './builders';
import { as, reviewCard, type SignedIn, signUp, submitCard } from './helpers';

const { t, staff } = setUpAppWithStaff();

const rate = (who: SignedIn | undefined, id: string, payload: object, app = t.app) =>
  as(app, who, { method: 'POST', url: `/api/transactions/${id}/feedback`, payload });
const ratingsOf = (id: string) =>
  t.database.db.select().from(feedback).where(eq(feedback.transactionId, id));

/** A customer's card, set to `status` by staff. */
async function cardWith(status: string, testApp = t, reviewer = staff) {
  const customer = await signUp(testApp.app);
  const card = (await submitCard(testApp.app, customer)).json() as { id: string };
  if (status !== 'pending') {
    const saved = await reviewCard(testApp.app, reviewer, card.id, {
      status,
      ...(status === 'rejected' ? { rejectionReason: 'code_invalid' } : {}),
    });
    expect(saved.statusCode).toBe(200);
  }
  return { customer, card };
}

describe('POST /api/transactions/{id}/feedback', () => {
  it('takes one rating of a completed card, and the customer and staff see it', async () => {
    const { customer, card } = await cardWith('completed');
    const response = await rate(customer, card.id, {
      rating: 5,
      comment: '  Paid within the hour ',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      rating: 5,
      comment: 'Paid within the hour',
      createdAt: expect.any(String),
    });
    const [mine] = (await as(t.app, customer, { method: 'GET', url: '/api/transactions' })).json();
    expect(mine.feedback).toEqual(response.json());
    const detail = (
      await as(t.app, staff, { method: 'GET', url: `/api/admin/transactions/${card.id}` })
    ).json();
    expect(detail.feedback).toEqual(response.json());

    const second = await rate(customer, card.id, { rating: 1 });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ message: 'You have already rated this card' });
    const rows = await ratingsOf(card.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: customer.user.id, rating: 5, type: 'transaction' });
  });

  it('is null on a card not rated yet, and an empty comment is kept as none', async () => {
    const { customer, card } = await cardWith('completed');
    const [before] = (
      await as(t.app, customer, { method: 'GET', url: '/api/transactions/recent' })
    ).json();
    expect(before.feedback).toBeNull();
    const response = await rate(customer, card.id, { rating: 3, comment: '   ' });
    expect(response.statusCode).toBe(201);
    expect(response.json().comment).toBeNull();
  });

  it('refuses a card that is not completed with 409', async () => {
    for (const status of ['pending', 'processing', 'rejected']) {
      const { customer, card } = await cardWith(status);
      const response = await rate(customer, card.id, { rating: 4 });
      expect(response.statusCode, status).toBe(409);
      expect(response.json()).toEqual({ message: 'You can rate a card once it is completed' });
      expect(await ratingsOf(card.id)).toEqual([]);
    }
  });

  it("never rates someone else's card: 404 as if it did not exist", async () => {
    const { card } = await cardWith('completed');
    const stranger = await signUp(t.app);
    const theirs = await rate(stranger, card.id, { rating: 1, comment: 'spite' });
    expect(theirs.statusCode).toBe(404);
    const missing = await rate(stranger, '00000000-0000-4000-8000-000000000000', { rating: 1 });
    expect(missing.statusCode).toBe(404);
    expect(theirs.json()).toEqual(missing.json());
    expect((await rate(stranger, 'not-an-id', { rating: 1 })).statusCode).toBe(404);
    expect(await ratingsOf(card.id)).toEqual([]);
  });

  it('is for customers: 401 signed out, 403 for staff', async () => {
    const { card } = await cardWith('completed');
    expect((await rate(undefined, card.id, { rating: 5 })).statusCode).toBe(401);
    expect((await rate(staff, card.id, { rating: 5 })).statusCode).toBe(403);
    expect(await ratingsOf(card.id)).toEqual([]);
  });

  it('refuses a rating outside 1 to 5 or a comment too long, naming the field', async () => {
    const { customer, card } = await cardWith('completed');
    const cases: [object, string][] = [
      [{ rating: 0 }, 'rating'],
      [{ rating: 6 }, 'rating'],
      [{ rating: 4.5 }, 'rating'],
      [{ rating: '5' }, 'rating'],
      [{}, 'rating'],
      [{ rating: 5, comment: 'x'.repeat(1001) }, 'comment'],
      [{ rating: 5, comment: 7 }, 'comment'],
    ];
    for (const [payload, field] of cases) {
      const response = await rate(customer, card.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(response.json().errors), JSON.stringify(payload)).toEqual([field]);
    }
    // None of those was kept: the first valid rating is.
    expect(
      (await rate(customer, card.id, { rating: 2, comment: 'x'.repeat(1000) })).statusCode,
    ).toBe(201);
    expect(await ratingsOf(card.id)).toHaveLength(1);
  });

  it('makes one rating of many sent at the same moment, and never a 5xx', async () => {
    const { customer, card } = await cardWith('completed');
    const responses = await Promise.all(
      [1, 2, 3, 4, 5].map((rating) => rate(customer, card.id, { rating })),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    expect(await ratingsOf(card.id)).toHaveLength(1);
  });

  it('gives staff the average rating to one decimal and the count', async () => {
    await withAppAndStaff(async (fresh, reviewer) => {
      const stats = async () =>
        (await as(fresh.app, reviewer, { method: 'GET', url: '/api/admin/stats' })).json();
      expect(await stats()).toMatchObject({ averageRating: null, ratingCount: 0 });
      for (const rating of [5, 4, 4]) {
        const { customer, card } = await cardWith('completed', fresh, reviewer);
        expect((await rate(customer, card.id, { rating }, fresh.app)).statusCode).toBe(201);
      }
      expect(await stats()).toMatchObject({ averageRating: '4.3', ratingCount: 3 });
      // A card later taken back from completed keeps its rating.
      const [row] = await fresh.database.db.select().from(feedback);
      await fresh.database.db
        .update(transactions)
        .set({ status: 'processing' })
        .where(eq(transactions.id, row!.transactionId!));
      expect((await stats()).ratingCount).toBe(3);
    });
  });
});
