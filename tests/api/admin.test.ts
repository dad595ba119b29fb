import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, chatMessages, transactions, users } from '../../src/server/db/schema';
import { setUpAppWithStaff, withAppAndStaff } from './builders';
import { as, reviewCard, type SignedIn, signInStaff, signUp, submitCard } from './helpers';

const { t, staff } = setUpAppWithStaff({}, 'reviewer@example.com');

const get = (who: SignedIn | undefined, url: string) => as(t.app, who, { method: 'GET', url });
const patch = (who: SignedIn | undefined, id: string, payload: object) =>
  reviewCard(t.app, who, id, payload);
const auditCount = async () =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]!.n;

async function newCard(body: object = {}, who?: SignedIn) {
  const customer = who ?? (await signUp(t.app, { firstName: 'Dana', lastName: 'Diaz' }));
  const response = await submitCard(t.app, customer, body);
  expect(response.statusCode).toBe(201);
  return { customer, card: response.json() as { id: string; updatedAt: string } };
}

describe('who may use the admin API', () => {
  it('answers 401 to anonymous callers and 403 to customers on every endpoint', async () => {
    const customer = await signUp(t.app);
    const { card } = await newCard();
    const calls = [
      ['GET', '/api/admin/stats'],
      ['GET', '/api/admin/transactions'],
      ['GET', `/api/admin/transactions/${card.id}`],
      ['PATCH', `/api/admin/transactions/${card.id}`],
      ['GET', '/api/admin/users'],
    ] as const;
    for (const [method, url] of calls) {
      const payload = method === 'PATCH' ? { status: 'completed' } : undefined;
      expect((await as(t.app, undefined, { method, url, payload })).statusCode, url).toBe(401);
      const forbidden = await as(t.app, customer, { method, url, payload });
      expect(forbidden.statusCode, url).toBe(403);
      expect(forbidden.json()).toEqual({ message: 'Admin access required' });
    }
    const [row] = await t.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, card.id));
    expect(row!.status).toBe('pending');
  });
});

describe('GET /api/admin/transactions', () => {
  it('lists newest first with the customer and payment-method fields', async () => {
    const { customer, card } = await newCard({ cardType: 'Nordstrom', cardValue: '80' });
    const [first] = (await get(staff, '/api/admin/transactions')).json();
    expect(first).toMatchObject({
      id: card.id,
      userId: customer.user.id,
      userEmail: customer.user.email,
      userFirstName: 'Dana',
      userLastName: 'Diaz',
      cardType: 'Nordstrom',
      cardValue: '80.00',
      expectedPayout: '69.60',
      paymentMethodType: 'paypal',
      paymentMethodAccountName: 'Casey Customer',
      paymentMethodIdentifier: 'casey@example.com',
      paymentMethodAccountNumber: null,
    });
  });

  it('searches by card type, email and id, and filters by status', async () => {
    const { customer, card } = await newCard({ cardType: 'Zeta Unique Shop', cardValue: '75' });
    const search = async (query: string) =>
      (await get(staff, `/api/admin/transactions?${query}`))
        .json()
        .map((x: { id: string }) => x.id);
    expect(await search('search=zeta%20unique')).toEqual([card.id]);
    expect(await search(`search=${encodeURIComponent(customer.user.email.toUpperCase())}`)).toEqual(
      [card.id],
    );
    expect(await search(`search=${card.id.slice(0, 8)}`)).toEqual([card.id]);
    expect(await search('search=zeta&status=completed')).toEqual([]);
    expect(await search('search=zeta&status=pending')).toEqual([card.id]);
    // % and _ are searched as themselves, not as wildcards that match every row.
    expect(await search('search=%25')).toEqual([]);
    expect(await search('search=_')).toEqual([]);
    expect((await get(staff, '/api/admin/transactions?status=lost')).statusCode).toBe(400);
  });

  it('pages through results with a cursor, without gaps or repeats', async () => {
    const who = await signUp(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await newCard({ cardType: 'Paging Test Co', cardValue: '60' }, who)).card.id);
    const seen: string[] = [];
    let url = '/api/admin/transactions?search=paging%20test&limit=2';
    for (let pages = 0; pages < 5; pages++) {
      const response = await get(staff, url);
      seen.push(...response.json().map((x: { id: string }) => x.id));
      const next = response.headers['x-next-cursor'];
      if (!next) break;
      url = `/api/admin/transactions?search=paging%20test&limit=2&cursor=${next}`;
    }
    expect(seen).toEqual([...ids].reverse());
    expect((await get(staff, '/api/admin/transactions?cursor=garbage')).statusCode).toBe(400);
  });

  it('sort=waiting lists pending cards longest-waiting first, then the rest newest first, through every page', async () => {
    const who = await signUp(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await newCard({ cardValue: '60' }, who)).card.id);
    // Two of them decided: they leave the waiting part for the rest.
    for (const id of [ids[1]!, ids[4]!]) {
      expect((await patch(staff, id, { status: 'processing' })).statusCode).toBe(200);
    }
    const rows = await t.database.db
      .select({ id: transactions.id, status: transactions.status, at: transactions.createdAt })
      .from(transactions);
    const key = (r: (typeof rows)[number]) => `${r.at.toISOString()}|${r.id}`;
    const waiting = rows.filter((r) => r.status === 'pending');
    const rest = rows.filter((r) => r.status !== 'pending');
    const expected = [
      ...waiting.sort((a, b) => key(a).localeCompare(key(b))),
      ...rest.sort((a, b) => key(b).localeCompare(key(a))),
    ].map((r) => r.id);

    const seen: string[] = [];
    let url = '/api/admin/transactions?sort=waiting&limit=3';
    for (let pages = 0; pages < 200; pages++) {
      const response = await get(staff, url);
      expect(response.statusCode).toBe(200);
      seen.push(...response.json().map((x: { id: string }) => x.id));
      const next = response.headers['x-next-cursor'];
      if (!next) break;
      url = `/api/admin/transactions?sort=waiting&limit=3&cursor=${next}`;
    }
    expect(seen).toEqual(expected);
    expect(seen.indexOf(ids[0]!)).toBeLessThan(seen.indexOf(ids[5]!));
    expect(seen.indexOf(ids[5]!)).toBeLessThan(seen.indexOf(ids[4]!));
    expect((await get(staff, '/api/admin/transactions?sort=oldest')).statusCode).toBe(400);
  });
});

describe('PATCH /api/admin/transactions/{id}', () => {
  it('updates, records the audit, and the customer sees it in lists and stats', async () => {
    const { customer, card } = await newCard();
    const response = await patch(staff, card.id, {
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '91',
      adminNotes: 'Paid by PayPal',
      expectedUpdatedAt: card.updatedAt,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '91.00',
      adminNotes: 'Paid by PayPal',
    });

    const detail = (await get(staff, `/api/admin/transactions/${card.id}`)).json();
    expect(detail.audit).toHaveLength(1);
    expect(detail.audit[0]).toMatchObject({
      actorEmail: 'reviewer@example.com',
      action: 'update',
      changes: {
        status: { from: 'pending', to: 'completed' },
        paymentStatus: { from: 'pending', to: 'sent' },
        paymentAmount: { from: null, to: '91.00' },
        adminNotes: { from: null, to: 'Paid by PayPal' },
      },
    });

    const [mine] = (await get(customer, '/api/transactions')).json();
    expect(mine).toMatchObject({
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '91.00',
      adminNotes: 'Paid by PayPal',
    });
    expect((await get(customer, '/api/stats')).json()).toEqual({
      totalSubmitted: 1,
      pending: 0,
      completed: 1,
      totalEarned: '91.00',
      awaitingPayment: '0.00',
    });
    const [recent] = (await get(customer, '/api/transactions/recent')).json();
    expect(recent.status).toBe('completed');
  });

  it('writes no audit row when nothing changes', async () => {
    const { card } = await newCard();
    const before = await auditCount();
    const response = await patch(staff, card.id, { status: 'pending', paymentStatus: 'pending' });
    expect(response.statusCode).toBe(200);
    expect(await auditCount()).toBe(before);
  });

  it('refuses unknown values and bad amounts with 400, writing nothing', async () => {
    const { card } = await newCard();
    const before = await auditCount();
    const cases: [object, string, string][] = [
      [
        { status: 'paid' },
        'status',
        'Status must be one of: pending, processing, completed, rejected',
      ],
      [
        { paymentStatus: 'wired' },
        'paymentStatus',
        'Payment status must be one of: pending, sent, confirmed',
      ],
      [{ paymentAmount: 'abc' }, 'paymentAmount', 'must be a number'],
      [{ paymentAmount: '-1' }, 'paymentAmount', 'must be a number'],
      [{ paymentAmount: '1.234' }, 'paymentAmount', 'must be a number'],
      [{ paymentAmount: 100_000_000 }, 'paymentAmount', 'must be a number'],
      [{ paymentAmount: true }, 'paymentAmount', 'must be a number'],
      [{ adminNotes: 'x'.repeat(2001) }, 'adminNotes', 'Admin notes are too long'],
    ];
    for (const [payload, field, message] of cases) {
      const response = await patch(staff, card.id, { status: 'completed', ...payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errors[field], JSON.stringify(payload)).toContain(message);
    }
    expect(await auditCount()).toBe(before);
    const [row] = await t.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, card.id));
    expect(row!.status).toBe('pending');

    // Well-formed amounts below the quote are refused as a broken promise, not as bad input
    // (decision 073); above it, as more than the card pays (decision 106); the quote is taken.
    for (const amount of ['0', 12.5]) {
      const below = await patch(staff, card.id, { paymentAmount: amount });
      expect(below.statusCode).toBe(409);
      expect(below.json().code).toBe('below_quote');
    }
    for (const amount of ['99999999.99', '91.5']) {
      const above = await patch(staff, card.id, { paymentAmount: amount });
      expect(above.statusCode).toBe(400);
      expect(above.json().code).toBe('over_value');
    }
    expect((await patch(staff, card.id, { paymentAmount: 91 })).statusCode).toBe(200);
    expect(
      (await patch(staff, '00000000-0000-4000-8000-000000000000', { status: 'completed' }))
        .statusCode,
    ).toBe(404);
    expect((await patch(staff, 'not-an-id', { status: 'completed' })).statusCode).toBe(404);
  });

  it('refuses a stale save with 409 so two reviewers never overwrite each other unseen', async () => {
    const { card } = await newCard();
    const loaded = (await get(staff, `/api/admin/transactions/${card.id}`)).json();
    const other = await signInStaff(t, 'second.reviewer@example.com');
    const first = await patch(other, card.id, {
      status: 'processing',
      expectedUpdatedAt: loaded.updatedAt,
    });
    expect(first.statusCode).toBe(200);

    const before = await auditCount();
    const stale = await patch(staff, card.id, {
      status: 'rejected',
      rejectionReason: 'code_invalid',
      expectedUpdatedAt: loaded.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/changed by someone else/);
    expect(await auditCount()).toBe(before);
    const [row] = await t.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, card.id));
    expect(row!.status).toBe('processing');

    const fresh = await patch(staff, card.id, {
      status: 'rejected',
      rejectionReason: 'code_invalid',
      expectedUpdatedAt: first.json().updatedAt,
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('refuses a save without expectedUpdatedAt, and lets one of two saves of one version win (decision 108)', async () => {
    const { card } = await newCard();
    const other = await signInStaff(t, 'third.reviewer@example.com');
    const before = await auditCount();
    const unsaid = (who: SignedIn, payload: object) =>
      as(t.app, who, { method: 'PATCH', url: `/api/admin/transactions/${card.id}`, payload });
    const blind = await Promise.all([
      unsaid(staff, { status: 'processing' }),
      unsaid(other, { status: 'rejected', rejectionReason: 'code_invalid' }),
    ]);
    for (const response of blind) {
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({
        expectedUpdatedAt:
          'expectedUpdatedAt is required: the updatedAt of the card as you loaded it',
      });
    }
    expect(await auditCount()).toBe(before);
    const both = await Promise.all([
      patch(staff, card.id, { status: 'processing', expectedUpdatedAt: card.updatedAt }),
      patch(other, card.id, {
        status: 'rejected',
        rejectionReason: 'code_invalid',
        expectedUpdatedAt: card.updatedAt,
      }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await auditCount()).toBe(before + 1);
  });

  it('keeps the audit log append-only, even against direct SQL', async () => {
    const { card } = await newCard();
    await patch(staff, card.id, { status: 'processing' });
    await expect(
      t.database.db.update(auditLog).set({ actorEmail: 'someone@else.com' }),
    ).rejects.toThrow();
    await expect(t.database.db.delete(auditLog)).rejects.toThrow();
    expect((await get(staff, `/api/admin/transactions/${card.id}`)).json().audit).toHaveLength(1);
  });
});

describe('GET /api/admin/users and /api/admin/stats', () => {
  it('lists users newest first with their role', async () => {
    const plain = await signUp(t.app, { firstName: 'Uma', lastName: 'User' });
    const flagged = await signUp(t.app, { firstName: 'Ari', lastName: 'Admin' });
    await t.database.db.update(users).set({ isAdmin: true }).where(eq(users.id, flagged.user.id));
    const list = (await get(staff, '/api/admin/users?limit=2')).json();
    expect(list.map((u: { id: string }) => u.id)).toEqual([flagged.user.id, plain.user.id]);
    expect(list[0]).toMatchObject({ firstName: 'Ari', lastName: 'Admin', isAdmin: true });
    expect(list[1]).toMatchObject({ email: plain.user.email, isAdmin: false });
    expect(list[0]).not.toHaveProperty('password');
    // The next page starts after the last user shown.
    const cursor = (await get(staff, '/api/admin/users?limit=2')).headers[
      'x-next-cursor'
    ] as string;
    expect(Buffer.from(cursor, 'base64url').toString()).toContain(plain.user.id);
  });

  it('counts transactions, pending ones, users and messages sent by users', async () => {
    await withAppAndStaff(async (fresh, reviewer) => {
      const a = await signUp(fresh.app);
      await signUp(fresh.app);
      const card = (await submitCard(fresh.app, a)).json();
      await submitCard(fresh.app, a);
      await fresh.database.db
        .update(transactions)
        .set({ status: 'completed' })
        .where(eq(transactions.id, card.id));
      await fresh.database.db.insert(chatMessages).values([
        { userId: a.user.id, senderType: 'user', message: 'hi' },
        { userId: a.user.id, senderType: 'user', message: 'anyone?' },
        { userId: a.user.id, senderType: 'admin', message: 'hello' },
      ]);
      const stats = await as(fresh.app, reviewer, { method: 'GET', url: '/api/admin/stats' });
      expect(stats.json()).toEqual({
        totalTransactions: 2,
        pendingReview: 1,
        totalUsers: 2,
        chatMessages: 2,
        averageRating: null,
        ratingCount: 0,
        unreadChatMessages: 2,
      });
    });
  });
});
