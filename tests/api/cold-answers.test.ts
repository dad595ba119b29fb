import { eq, type SQL, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  disbursementCards,
  disbursements,
  feedback,
  transactions,
} from '../../src/server/db/schema';
import { holdRulesOf } from '../../src/server/modules/cards';
import { findTransaction, toTransaction } from '../../src/server/modules/cards/queries';
import { registerSerializer } from '../../src/server/plugins/serializer';
import { transactionSchema } from '../../src/shared/transactions';
import { as, type SignedIn, setUpTestApp, signUp, submitCard } from './helpers';

// Payout holds on, so that the fixture's approved cards wait (decision 072).
const t = setUpTestApp(() => ({
  verification: {
    documentRetentionDays: 90,
    payoutHoldNewMethodHours: 24,
    payoutHoldNewAccountHours: 48,
  },
}));

const get = (who: SignedIn, url: string, headers: Record<string, string> = {}) =>
  as(t.app, who, { method: 'GET', url, headers });

/** A moment with microseconds, which the answers carry to the millisecond. */
const at = (text: string) => sql`${text}::timestamptz` as SQL<Date>;

/**
 * A customer whose cards are in every state an answer shows: pending (in the queue), processing
 * with staff's notes, completed and paid with a rating, rejected with an appeal, a revised offer
 * waiting, approved and held, and one with a failed payout on a rail. Texts with quotes, line
 * breaks, tabs and characters beyond ASCII.
 */
async function fixtureCustomer() {
  const who = await signUp(t.app);
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) {
    const response = await submitCard(t.app, who, {
      notes: i % 2 ? `Card "${i}"\nwith a line break, é and 🎁` : undefined,
    });
    expect(response.statusCode, response.body).toBe(201);
    ids.push(response.json().id);
  }
  const db = t.database.db;
  const set = (index: number, values: Partial<typeof transactions.$inferInsert> | object) =>
    db
      .update(transactions)
      .set(values as Partial<typeof transactions.$inferInsert>)
      .where(eq(transactions.id, ids[index]!));
  await set(1, {
    status: 'processing',
    adminNotes: 'Checked the balance \\ twice: "ok"\t✓',
    updatedAt: at('2025-03-01 10:00:00.123999+00'),
  });
  await set(2, {
    status: 'completed',
    paymentStatus: 'sent',
    paymentAmount: '91.00',
    paidAt: at('2025-03-02 11:12:13.456789+00'),
    payoutReference: 'PP-123 "ref"',
  });
  await db.insert(feedback).values({
    userId: who.user.id,
    transactionId: ids[2],
    rating: 4,
    comment: 'Fast </script> and "fair"',
    type: 'transaction',
    createdAt: at('2025-03-03 09:00:00.000001+00'),
  });
  await set(3, {
    status: 'rejected',
    rejectionReason: 'other',
    rejectionNote: 'The code was "used"',
    rejectedAt: at('2025-03-04 08:00:00.999999+00'),
    appealStatus: 'pending',
    appealMessage: 'Please look again\nthe card is new',
    appealImageUrls: ['/api/files/a.jpg', '/api/files/b.jpg'],
    appealCreatedAt: at('2025-03-05 07:00:00.5+00'),
  });
  await set(4, {
    status: 'approved',
    offerVerifiedValue: '40.00',
    offerAmount: '36.40',
    offerNote: 'Balance is $40',
    offerStatus: 'pending',
    offerCreatedAt: at('2025-03-06 06:00:00.250000+00'),
    offerExpiresAt: at('2099-03-09 06:00:00.250000+00'),
  });
  await set(5, { status: 'approved' });
  await set(6, { status: 'approved', paymentStatus: 'pending' });
  const [payout] = await db
    .insert(disbursements)
    .values({
      userId: who.user.id,
      rail: 'usdt',
      amount: 9100,
      status: 'failed',
      idempotencyKey: `cold-${ids[6]}`,
      reference: '0xabc\tdef',
      referenceUrl: 'https://example.com/tx/0xabc',
      lastError: 'out of gas\tat "step" 2',
    })
    .returning({ id: disbursements.id });
  await db
    .insert(disbursementCards)
    .values({ disbursementId: payout!.id, transactionId: ids[6]!, owed: 9100 });
  // The change reaches the answers as a write of the cards module's would tell it.
  t.app.live.changed([who.user.id], ['transactions', 'stats']);
  return who;
}

/** The answers as the old path wrote them: each row through toTransaction and the route's serialiser. */
async function oldShape(who: SignedIn, ids: string[]) {
  const holds = holdRulesOf(t.app);
  const answers: ReturnType<typeof toTransaction>[] = [];
  for (const id of ids)
    answers.push(toTransaction((await findTransaction(t.database.db, id))!, holds));
  const app = Fastify();
  registerSerializer(app);
  app.get('/', { schema: { response: { 200: z.array(transactionSchema) } } }, async () => answers);
  const body = (await app.inject({ method: 'GET', url: '/' })).body;
  await app.close();
  expect(who.user.id).toBeTruthy();
  return body;
}

/**
 * A pending card's expected decision is the minute's (`date_trunc('minute', now())`), so reads on
 * either side of a minute's end differ by it (a CI run under load crossed one between the answer
 * and the old path's read). Runs `reads`, every answer built afresh, until one run falls inside
 * one minute.
 */
async function inOneMinute<T>(reads: () => Promise<T>): Promise<T> {
  for (;;) {
    t.app.live.responses.clear();
    const minute = Math.floor(Date.now() / 60_000);
    const result = await reads();
    if (Math.floor(Date.now() / 60_000) === minute) return result;
  }
}

describe("the customer's cards, written once from text cells (issue 45)", () => {
  it('are the same bytes as the old path for the same rows: the list, and the recent page alone or beside it', async () => {
    const who = await fixtureCustomer();
    const read = await inOneMinute(async () => {
      // The list and the recent page asked at once: one read, shared.
      const [list, recentBeside] = await Promise.all([
        get(who, '/api/transactions'),
        get(who, '/api/transactions/recent'),
      ]);
      const ids: string[] = list.json().map((card: { id: string }) => card.id);
      const listOld = await oldShape(who, ids);
      const recentOld = await oldShape(who, ids.slice(0, 5));
      // The recent page alone: its own read of the newest five.
      t.app.live.responses.clear();
      const recentAlone = await get(who, '/api/transactions/recent');
      return { list, recentBeside, ids, listOld, recentOld, recentAlone };
    });
    const { list, recentBeside, ids } = read;
    expect(ids).toHaveLength(8);
    expect(list.body).toBe(read.listOld);
    expect(recentBeside.body).toBe(read.recentOld);
    expect(read.recentAlone.body).toBe(recentBeside.body);
    // Every state of the fixture is there to compare.
    const cards = list.json() as Record<string, unknown>[];
    for (const field of [
      'queue',
      'feedback',
      'appeal',
      'offer',
      'payout',
      'payoutHoldUntil',
      'paidAt',
    ])
      expect(
        cards.some((card) => card[field] !== null),
        field,
      ).toBe(true);
  });

  it('carry an ETag that changes exactly when the data does', async () => {
    const who = await fixtureCustomer();
    const etagOf = async () => {
      const answer = await get(who, '/api/transactions');
      expect(answer.statusCode).toBe(200);
      return answer.headers.etag as string;
    };
    const [card] = await t.database.db
      .select({ id: transactions.id, notes: transactions.notes })
      .from(transactions)
      .where(eq(transactions.userId, who.user.id))
      .limit(1);
    const setNotes = async (notes: string | null) => {
      await t.database.db.update(transactions).set({ notes }).where(eq(transactions.id, card!.id));
      t.app.live.changed([who.user.id], ['transactions']);
    };
    const etags = await inOneMinute(async () => {
      const first = await etagOf();
      // Read again from the database (a restart, a change that touched nothing shown).
      t.app.live.responses.clear();
      const reread = await etagOf();
      t.app.live.changed([who.user.id], ['transactions']);
      const unchanged = await etagOf();
      // A change shown, then undone.
      await setNotes('changed');
      const changed = await etagOf();
      await setNotes(card!.notes);
      return { first, reread, unchanged, changed, undone: await etagOf() };
    });
    expect(etags.reread).toBe(etags.first);
    expect(etags.unchanged).toBe(etags.first);
    expect(etags.changed).not.toBe(etags.first);
    expect(etags.undone).toBe(etags.first);
  });

  it("are never another account's: read together, each customer gets their own, and no one's ETag is another's 304", async () => {
    const a = await fixtureCustomer();
    const b = await signUp(t.app);
    const c = await signUp(t.app);
    expect((await submitCard(t.app, c)).statusCode).toBe(201);
    const polls = ['/api/transactions', '/api/transactions/recent'];
    const who = [a, b, c];
    const answers = await Promise.all(who.flatMap((w) => polls.map((url) => get(w, url))));
    const byCustomer = who.map((_, i) => answers.slice(2 * i, 2 * i + 2).map((r) => r.json()));
    expect(byCustomer.map(([list, recent]) => [list.length, recent.length])).toEqual([
      [8, 5],
      [0, 0],
      [1, 1],
    ]);
    const owners = async (w: SignedIn, cards: { id: string }[]) => {
      for (const card of cards)
        expect((await findTransaction(t.database.db, card.id))!.userId).toBe(w.user.id);
    };
    for (const [i, w] of who.entries())
      for (const answer of byCustomer[i]!) await owners(w, answer);
    // Warm now (answered from memory): still each one's own, and another's ETag is no 304.
    for (const url of polls) {
      const aEtag = (await get(a, url)).headers.etag as string;
      const cAnswer = await get(c, url, { 'if-none-match': aEtag });
      expect(cAnswer.statusCode).toBe(200);
      await owners(c, cAnswer.json());
      expect(cAnswer.headers.etag).not.toBe(aEtag);
    }
  });

  it('make no write but the one batched session renewal, every session and answer cold, as after a restart', async () => {
    const customers = [await fixtureCustomer(), await signUp(t.app), await signUp(t.app)];
    // The sign-ups' mail goes first: its queue writes in the background, not for the reads.
    await t.app.mail.deliverDue();
    await t.app.sessionTouches.flush();
    t.app.live.sessions.clear();
    t.app.live.responses.clear();
    const queries = vi.spyOn(t.database.pool, 'query');
    try {
      const polls = [
        '/api/stats',
        '/api/transactions/recent',
        '/api/transactions',
        '/api/chat/messages',
      ];
      const answers = await Promise.all(customers.flatMap((w) => polls.map((url) => get(w, url))));
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
      await t.app.sessionTouches.flush();
      const statements = queries.mock.calls.map(([query]) => {
        const { text, name } = (typeof query === 'string' ? { text: query } : query) as {
          text: string;
          name?: string;
        };
        return { text: text.trim().toLowerCase(), name };
      });
      expect(statements.length).toBeGreaterThan(0);
      // The mail worker's tick (every few seconds, whatever the requests) may claim in the
      // window: a read that queued mail would show as its insert.
      const writes = statements.filter(
        ({ text, name }) =>
          name !== 'cardbridge-mail-claim' &&
          /^(insert|update|delete|with[\s\S]*\b(insert|update|delete)\b)/.test(text),
      );
      expect(writes.map((w) => w.name)).toEqual(['cardbridge-touch-sessions']);
    } finally {
      queries.mockRestore();
    }
  });
});
