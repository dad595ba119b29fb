import Fastify from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { LiveHub } from '../../src/server/live/hub';
import { registerLiveCache } from '../../src/server/live/plugin';
import { TOPIC_URLS } from '../../src/shared/live';
import { registeredRoutes } from '../fuzz/catalogue';
import { setUpAppWithStaff, withTestApp } from './builders';
import { addPaymentMethod, as, type SignedIn, signUp, submitCard } from './helpers';
import { openEvents } from './live-helpers';

const { t, staff } = setUpAppWithStaff();

const get = (who: SignedIn, url: string, headers: Record<string, string> = {}) =>
  as(t.app, who, { method: 'GET', url, headers });
const send = (who: SignedIn, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  as(t.app, who, { method, url, payload });

/** The SQL statements one request costs. */
async function statementsOf(request: () => Promise<{ statusCode: number }>) {
  const before = t.database.statements;
  const response = await request();
  return { statements: t.database.statements - before, status: response.statusCode };
}

/** Every poll a customer page runs, primed so that the next read may come from memory. */
const CUSTOMER_POLLS = [
  '/api/stats',
  '/api/transactions',
  '/api/transactions/recent',
  '/api/chat/messages',
  '/api/support-tickets',
  '/api/payment-methods',
];
const STAFF_POLLS = [
  '/api/admin/stats',
  '/api/admin/transactions',
  '/api/admin/users',
  '/api/admin/chats',
  '/api/admin/support-tickets',
];
async function prime(customer: SignedIn) {
  for (const url of CUSTOMER_POLLS) await get(customer, url);
  for (const url of STAFF_POLLS) await get(staff, url);
}

describe('a poll answered from memory', () => {
  it('costs no SQL when nothing changed, and one statement when something did', async () => {
    const customer = await signUp(t.app);
    await submitCard(t.app, customer);
    for (const url of CUSTOMER_POLLS) {
      await get(customer, url); // the first read fills the cache
      expect(await statementsOf(() => get(customer, url)), url).toEqual({
        statements: 0,
        status: 200,
      });
    }
    await submitCard(t.app, customer);
    for (const url of ['/api/stats', '/api/transactions', '/api/transactions/recent']) {
      expect(await statementsOf(() => get(customer, url)), url).toEqual({
        statements: 1,
        status: 200,
      });
    }
    for (const url of STAFF_POLLS) {
      await get(staff, url);
      expect(await statementsOf(() => get(staff, url)), url).toEqual({
        statements: 0,
        status: 200,
      });
    }
  });

  it('answers 304 to a matching If-None-Match only while nothing changed', async () => {
    const customer = await signUp(t.app);
    const first = await get(customer, '/api/transactions');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('no-store');

    expect(first.headers['content-security-policy']).toContain("default-src 'self'");
    expect(first.headers['x-content-type-options']).toBe('nosniff');

    const same = await get(customer, '/api/transactions', { 'if-none-match': etag });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.etag).toBe(etag);
    // A 304 carries what RFC 9110 names for it, not the policy headers (decision 090): answered
    // from memory, and answered after a read (nothing kept, as after a restart).
    t.app.live.responses.clear();
    const reread = await get(customer, '/api/transactions', { 'if-none-match': etag });
    for (const answer of [same, reread]) {
      expect(answer.statusCode).toBe(304);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['x-request-id']).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
      expect(answer.headers['content-security-policy']).toBeUndefined();
      expect(answer.headers['x-frame-options']).toBeUndefined();
    }
    expect(
      (await get(customer, '/api/transactions', { 'if-none-match': '"other"' })).statusCode,
    ).toBe(200);

    await submitCard(t.app, customer);
    const changed = await get(customer, '/api/transactions', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toHaveLength(1);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('keeps one customer’s answers from another, and the next-page cursor of staff lists', async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    await submitCard(t.app, a);
    expect((await get(a, '/api/transactions')).json()).toHaveLength(1);
    expect((await get(b, '/api/transactions')).json()).toEqual([]);
    expect((await get(b, '/api/transactions')).json()).toEqual([]);

    const page = await get(staff, '/api/admin/transactions?limit=1');
    const again = await get(staff, '/api/admin/transactions?limit=1');
    expect(again.headers['x-next-cursor']).toBe(page.headers['x-next-cursor']);
    expect(Buffer.from(again.headers['x-next-cursor'] as string, 'base64url').toString()).toContain(
      page.json()[0].id,
    );
  });
});

describe('polls that miss the cache at the same moment', () => {
  it('are read together in one statement, each customer answered with their own rows', async () => {
    const customers: { who: SignedIn; cards: string[] }[] = [];
    for (let i = 0; i < 4; i++) {
      const who = await signUp(t.app);
      const cards = [];
      for (let k = 0; k <= i; k++) cards.unshift((await submitCard(t.app, who)).json().id);
      await send(who, 'POST', '/api/chat/messages', { message: `from customer ${i}` });
      customers.push({ who, cards });
    }
    const together = async (url: string) => {
      const before = t.database.statements;
      const answers = await Promise.all(customers.map(({ who }) => get(who, url)));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
      return { answers: answers.map((a) => a.json()), statements: t.database.statements - before };
    };

    const list = await together('/api/transactions');
    expect(list.statements).toBe(1);
    expect(list.answers.map((a) => a.map((tx: { id: string }) => tx.id))).toEqual(
      customers.map((c) => c.cards),
    );
    const recent = await together('/api/transactions/recent');
    expect(recent.statements).toBe(1);
    expect(recent.answers.map((a) => a.length)).toEqual([1, 2, 3, 4]);
    expect(recent.answers[3].map((tx: { id: string }) => tx.id)).toEqual(customers[3]!.cards);
    const stats = await together('/api/stats');
    expect(stats.statements).toBe(1);
    expect(stats.answers.map((a) => a.totalSubmitted)).toEqual([1, 2, 3, 4]);
    const chat = await together('/api/chat/messages');
    expect(chat.statements).toBe(1);
    expect(chat.answers.map((a) => a.map((m: { message: string }) => m.message))).toEqual(
      customers.map((_, i) => [`from customer ${i}`]),
    );
  });

  it('answer a customer with nothing yet with empty lists and zero stats', async () => {
    const customer = await signUp(t.app);
    expect((await get(customer, '/api/transactions/recent')).json()).toEqual([]);
    expect((await get(customer, '/api/stats')).json()).toEqual({
      totalSubmitted: 0,
      pending: 0,
      completed: 0,
      totalEarned: '0.00',
      awaitingPayment: '0.00',
    });
  });
});

describe('answers whose bodies are no longer kept', () => {
  it('still answer a matching If-None-Match with 304 from memory; without it, read once more', async () => {
    // Bodies bounded to nothing: only stamps and ETags are kept.
    await withTestApp(
      async (bare) => {
        const customer = await signUp(bare.app);
        await submitCard(bare.app, customer);
        const read = async (headers: Record<string, string> = {}) => {
          const before = bare.database.statements;
          const response = await as(bare.app, customer, {
            method: 'GET',
            url: '/api/transactions',
            headers,
          });
          return { response, statements: bare.database.statements - before };
        };
        const first = await read();
        const etag = first.response.headers.etag as string;
        const unchanged = await read({ 'if-none-match': etag });
        expect(unchanged.response.statusCode).toBe(304);
        expect(unchanged.statements).toBe(0);
        const again = await read();
        expect(again.response.statusCode).toBe(200);
        expect(again.statements).toBe(1);
        expect(again.response.body).toBe(first.response.body);
        expect(again.response.headers.etag).toBe(etag);
      },
      {},
      { live: new LiveHub(0) },
    );
  });
});

describe('every write path bumps what it changes', () => {
  it('a customer’s upload: their lists and stats, the staff queue and summary', async () => {
    const customer = await signUp(t.app);
    await prime(customer);
    const before = (await get(staff, '/api/admin/stats')).json();
    const card = (await submitCard(t.app, customer)).json();

    expect((await get(customer, '/api/transactions')).json()[0].id).toBe(card.id);
    expect((await get(customer, '/api/transactions/recent')).json()[0].id).toBe(card.id);
    expect((await get(customer, '/api/stats')).json()).toMatchObject({
      totalSubmitted: 1,
      pending: 1,
    });
    expect((await get(staff, '/api/admin/transactions')).json()[0].id).toBe(card.id);
    const after = (await get(staff, '/api/admin/stats')).json();
    expect(after.totalTransactions).toBe(before.totalTransactions + 1);
    expect(after.pendingReview).toBe(before.pendingReview + 1);
  });

  it('a staff decision: the customer’s lists and stats, the queue and summary', async () => {
    const customer = await signUp(t.app);
    const card = (await submitCard(t.app, customer)).json();
    await prime(customer);
    const saved = await send(staff, 'PATCH', `/api/admin/transactions/${card.id}`, {
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '91.00',
      expectedUpdatedAt: card.updatedAt,
    });
    expect(saved.statusCode).toBe(200);
    expect((await get(customer, '/api/transactions')).json()[0]).toMatchObject({
      status: 'completed',
      paymentStatus: 'sent',
    });
    expect((await get(customer, '/api/transactions/recent')).json()[0].status).toBe('completed');
    expect((await get(customer, '/api/stats')).json()).toMatchObject({
      completed: 1,
      pending: 0,
      totalEarned: '91.00',
    });
    const row = (await get(staff, '/api/admin/transactions'))
      .json()
      .find((r: { id: string }) => r.id === card.id);
    expect(row.status).toBe('completed');
  });

  it('a chat message either way, and clearing every chat', async () => {
    const customer = await signUp(t.app);
    const other = await signUp(t.app);
    await send(other, 'POST', '/api/chat/messages', { message: 'other conversation' });
    await prime(customer);
    await get(other, '/api/chat/messages');
    const before = (await get(staff, '/api/admin/stats')).json().chatMessages;

    await send(customer, 'POST', '/api/chat/messages', { message: 'Is my card done?' });
    expect((await get(staff, '/api/admin/chats')).json()[0].message).toBe('Is my card done?');
    expect((await get(staff, '/api/admin/stats')).json().chatMessages).toBe(before + 1);
    expect((await get(customer, '/api/chat/messages')).json()).toHaveLength(1);

    await send(staff, 'POST', '/api/chat/messages', { message: 'Yes', userId: customer.user.id });
    expect(
      (await get(customer, '/api/chat/messages')).json().map((m: { message: string }) => m.message),
    ).toEqual(['Is my card done?', 'Yes']);

    expect((await send(staff, 'DELETE', '/api/admin/chats', {})).statusCode).toBe(200);
    expect((await get(customer, '/api/chat/messages')).json()).toEqual([]);
    expect((await get(other, '/api/chat/messages')).json()).toEqual([]);
    expect((await get(staff, '/api/admin/chats')).json()).toEqual([]);
    expect((await get(staff, '/api/admin/stats')).json().chatMessages).toBe(0);
  });

  it('a ticket filed, and its status changed by staff', async () => {
    const customer = await signUp(t.app);
    await prime(customer);
    const ticket = (
      await send(customer, 'POST', '/api/support-tickets', {
        email: customer.user.email,
        subject: 'Where is my payout?',
        message: 'It has been a day.',
      })
    ).json();
    expect((await get(customer, '/api/support-tickets')).json()[0].id).toBe(ticket.id);
    expect((await get(staff, '/api/admin/support-tickets')).json()[0].id).toBe(ticket.id);

    await send(staff, 'PATCH', `/api/admin/support-tickets/${ticket.id}`, { status: 'resolved' });
    expect((await get(customer, '/api/support-tickets')).json()[0].status).toBe('resolved');
    expect((await get(staff, '/api/admin/support-tickets')).json()[0].status).toBe('resolved');
  });

  it('payment methods added and removed, and a new customer in the staff lists', async () => {
    const customer = await signUp(t.app);
    await prime(customer);
    const method = await addPaymentMethod(t.app, customer);
    expect((await get(customer, '/api/payment-methods')).json()).toHaveLength(1);
    await send(customer, 'DELETE', `/api/payment-methods/${method.id}`);
    expect((await get(customer, '/api/payment-methods')).json()).toEqual([]);

    const users = (await get(staff, '/api/admin/users')).json().length;
    const totalUsers = (await get(staff, '/api/admin/stats')).json().totalUsers;
    const newcomer = await signUp(t.app);
    expect((await get(staff, '/api/admin/users')).json()[0].id).toBe(newcomer.user.id);
    expect((await get(staff, '/api/admin/users')).json().length).toBe(Math.min(users + 1, 25));
    expect((await get(staff, '/api/admin/stats')).json().totalUsers).toBe(totalUsers + 1);
  });
});

describe('sessions held in memory', () => {
  it('refuses a signed-out cookie at once, from memory', async () => {
    const customer = await signUp(t.app);
    await get(customer, '/api/stats');
    await send(customer, 'POST', '/api/logout');
    expect(await statementsOf(() => get(customer, '/api/stats'))).toEqual({
      statements: 0,
      status: 401,
    });
  });

  it('never reads the password hash after sign-in', async () => {
    const customer = await signUp(t.app);
    const cached = t.app.live.sessions.get(decodeURIComponent(customer.cookie.split('=')[1]!));
    expect(cached?.account).toMatchObject({ id: customer.user.id });
    expect(JSON.stringify(cached)).not.toMatch(/\$2[aby]\$/);
  });
});

describe('GET /api/events', () => {
  let base: string;
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('refuses anonymous callers', async () => {
    const response = await fetch(`${base}/api/events`);
    expect(response.status).toBe(401);
  });

  it('names what changed for the account, and nothing of anyone else’s', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const aliceEvents = await openEvents(base, alice.cookie);
    const bobEvents = await openEvents(base, bob.cookie);
    const staffEvents = await openEvents(base, staff.cookie);
    try {
      expect(aliceEvents.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await submitCard(t.app, alice);
      await aliceEvents.waitFor('transactions');
      await aliceEvents.waitFor('stats');
      await staffEvents.waitFor('queue');
      await send(staff, 'POST', '/api/chat/messages', { message: 'Hi', userId: alice.user.id });
      await aliceEvents.waitFor('chat');
      await staffEvents.waitFor('chats');
      // Bob's stream carried nothing of Alice's; customers never see staff topics.
      await send(bob, 'POST', '/api/chat/messages', { message: 'mine' });
      await bobEvents.waitFor('chat');
      expect(bobEvents.names()).toEqual(['ready', 'chat']);
      expect(aliceEvents.names()).not.toContain('queue');
      expect(staffEvents.names()).not.toContain('transactions');
    } finally {
      aliceEvents.close();
      bobEvents.close();
      staffEvents.close();
    }
  });

  it('tells every open stream of a change for everyone, once each, in one flush', async () => {
    const customers = await Promise.all(Array.from({ length: 60 }, () => signUp(t.app)));
    const streams = await Promise.all(customers.map((c) => openEvents(base, c.cookie)));
    try {
      const added = await send(staff, 'POST', '/api/admin/rates', {
        brand: `Broadcast Brand ${Date.now()}`,
        rate: '0.80',
        minimum: '25',
      });
      expect(added.statusCode).toBe(201);
      await Promise.all(streams.map((s) => s.waitFor('rates')));
      await new Promise((r) => setTimeout(r, 100));
      for (const stream of streams) {
        expect(stream.names().filter((name) => name === 'rates')).toHaveLength(1);
      }
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('closes the stream when the session signs out, and bounds the streams per account', async () => {
    const customer = await signUp(t.app);
    const streams = [];
    for (let i = 0; i < 6; i++) streams.push(await openEvents(base, customer.cookie));
    await streams[0]!.ended;
    expect(streams.map((s) => s.isEnded())).toEqual([true, false, false, false, false, false]);
    await send(customer, 'POST', '/api/logout');
    await Promise.all(streams.slice(1).map((s) => s.ended));
  });
});

describe('the topic table (src/shared/live.ts)', () => {
  it('names only GET routes the app has, and the client refetches from it', () => {
    const gets = new Set(
      registeredRoutes(t.app)
        .filter((route) => route.method === 'GET')
        .map((route) => route.path),
    );
    const urls = Object.values(TOPIC_URLS).flat();
    expect(urls.filter((url) => !gets.has(url))).toEqual([]);
    expect(urls.length).toBeGreaterThan(10);
  });

  it('keeps an app from starting with a route cached under a topic the table does not map', async () => {
    const app = Fastify();
    registerLiveCache(app, new LiveHub());
    expect(() =>
      app.get('/api/transactions', { config: { live: { topic: 'transactions' } } }, async () => []),
    ).not.toThrow();
    expect(() =>
      app.get('/api/unmapped', { config: { live: { topic: 'transactions' } } }, async () => []),
    ).toThrow(/TOPIC_URLS in src\/shared\/live.ts does not list it/);
    expect(() =>
      app.get('/api/admin/stats', { config: { live: { topic: 'queue' } } }, async () => ({})),
    ).toThrow(/cached under the live topic 'queue'/);
    await app.close();
  });
});

describe('a session not in memory', () => {
  /** The session statements run meanwhile (not every statement: background jobs may query). */
  async function countingSessionStatements(run: () => Promise<void>) {
    const queries = vi.spyOn(t.database.pool, 'query');
    try {
      await run();
      await t.app.sessionTouches.flush();
      const named = (name: string) =>
        queries.mock.calls.filter(([query]) => (query as { name?: string }).name === name);
      return {
        reads: named('cardbridge-read-sessions'),
        touches: named('cardbridge-touch-sessions'),
      };
    } finally {
      queries.mockRestore();
    }
  }

  it('is read once for requests that arrive together, as after a restart', async () => {
    const customer = await signUp(t.app);
    t.app.live.sessions.clear();
    const { reads, touches } = await countingSessionStatements(async () => {
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => get(customer, '/api/auth/user')),
      );
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    });
    expect(reads).toHaveLength(1);
    expect(touches).toHaveLength(1);
  });

  it('costs a few reads and one renewal for many customers at once, not a write per request', async () => {
    const customers = await Promise.all(Array.from({ length: 40 }, () => signUp(t.app)));
    await t.app.sessionTouches.flush();
    t.app.live.sessions.clear();
    const { reads, touches } = await countingSessionStatements(async () => {
      const answers = await Promise.all(
        customers.flatMap((c) => Array.from({ length: 4 }, () => get(c, '/api/auth/user'))),
      );
      expect(answers.every((a) => a.statusCode === 200)).toBe(true);
      // Each answered as its own account.
      expect(new Set(answers.map((a) => a.json().id)).size).toBe(40);
    });
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThanOrEqual(3);
    expect(touches).toHaveLength(1);
    // Its parameters (Drizzle passes them beside the statement): the 40 sessions' ids.
    expect((touches[0]![1] as unknown as unknown[][])[0]).toHaveLength(40);
  });

  it('ends in memory when its renewal finds it gone', async () => {
    const customer = await signUp(t.app);
    await t.app.sessionTouches.flush();
    t.app.live.sessions.clear();
    expect((await get(customer, '/api/auth/user')).statusCode).toBe(200);
    // Removed behind the cache's back (as a lost notification would leave it)...
    await t.database.pool.query('delete from sessions where account_id = $1', [customer.user.id]);
    await t.app.sessionTouches.flush();
    // ...the renewal does not find it, so the next request reads it again and is refused.
    expect((await get(customer, '/api/auth/user')).statusCode).toBe(401);
  });
});
