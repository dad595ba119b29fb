import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { transactions, users } from '../../src/server/db/schema';
import { LIMIT_REFUSAL_CODE } from '../../src/shared/verification';
import { sellerWithMethod, setUpAppWithMail } from './builders';
import { as, CARD, multipart, type SignedIn, uploadCardImage } from './helpers';

const { mail, t, staff } = setUpAppWithMail();

const ALL_SCOPES = ['cards:read', 'cards:write', 'balance:read', 'webhooks:manage'];

/** A seller at `level` with a payment method. */
const seller = (level = 2) => sellerWithMethod(t, level);

const createKey = (who: SignedIn, payload: object = {}) =>
  as(t.app, who, {
    method: 'POST',
    url: '/api/api-keys',
    payload: { name: 'Shop', scopes: ALL_SCOPES, ...payload },
  });

async function keyFor(who: SignedIn, payload: object = {}) {
  const created = await createKey(who, payload);
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as { id: string; key: string; last4: string; scopes: string[] };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

const v1 = (
  key: string,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
  app = t.app,
) => app.inject({ method, url, payload, headers: { ...bearer(key), ...headers } });

const eCode = (methodId: string, extra: object = {}) => ({
  brand: 'Amazon',
  value: '100',
  format: 'egift',
  code: `AMZN-${Math.random().toString(36).slice(2, 10)}-${Date.now().toString(36)}`,
  paymentMethodId: methodId,
  ...extra,
});

const cardsOf = async (userId: string) =>
  (
    await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(transactions)
      .where(eq(transactions.userId, userId))
  )[0]!.n;

describe('API keys', () => {
  it('are for level-2 sellers: 403 verification_required below', async () => {
    const { who } = await seller(1);
    const refused = await createKey(who);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('verification_required');
  });

  it('are shown once as cb_live_ + base62, listed by their last 4, and announced by email', async () => {
    const { who } = await seller();
    const created = await keyFor(who, { name: 'Reseller', scopes: ['cards:read'] });
    expect(created.key).toMatch(/^cb_live_[0-9A-Za-z]{43}$/);
    expect(created.last4).toBe(created.key.slice(-4));
    expect(created.scopes).toEqual(['cards:read']);
    const list = await as(t.app, who, { method: 'GET', url: '/api/api-keys' });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({
        id: created.id,
        name: 'Reseller',
        last4: created.last4,
        lastUsedAt: null,
        revokedAt: null,
      }),
    ]);
    // Never the key itself, nor its hash.
    expect(list.body).not.toContain(created.key.slice(8));
    const message = await mail.waitFor(who.user.email, /API key was created/);
    expect(message.text).toContain(created.last4);
    expect(message.text).not.toContain(created.key);
  });

  it('record when and from where they were last used', async () => {
    const { who } = await seller();
    const { key, id } = await keyFor(who);
    const used = await t.app.inject({
      method: 'GET',
      url: '/api/v1/balance',
      headers: bearer(key),
      remoteAddress: '203.0.113.9',
    });
    expect(used.statusCode, used.body).toBe(200);
    const row = (await as(t.app, who, { method: 'GET', url: '/api/api-keys' }))
      .json()
      .find((k: { id: string }) => k.id === id);
    expect(row.lastUsedIp).toBe('203.0.113.9');
    expect(row.lastUsedAt).not.toBeNull();
  });

  it('answer 401 invalid_api_key when missing, wrong, revoked or expired', async () => {
    const { who } = await seller();
    const { key, id } = await keyFor(who);
    const soon = await keyFor(who, { expiresAt: new Date(t.now() + 60_000).toISOString() });
    expect((await v1(key, 'GET', '/api/v1/balance')).statusCode).toBe(200);
    expect((await v1(soon.key, 'GET', '/api/v1/balance')).statusCode).toBe(200);

    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/balance' });
    const wrong = await v1(
      `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`,
      'GET',
      '/api/v1/balance',
    );
    for (const answer of [missing, wrong]) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json().code).toBe('invalid_api_key');
    }
    const revoked = await as(t.app, who, { method: 'DELETE', url: `/api/api-keys/${id}` });
    expect(revoked.statusCode).toBe(200);
    expect((await v1(key, 'GET', '/api/v1/balance')).json().code).toBe('invalid_api_key');
    t.advance(61_000);
    const expired = await v1(soon.key, 'GET', '/api/v1/balance');
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('invalid_api_key');
  });

  it('refuse an expiry in the past, unknown scopes and none', async () => {
    const { who } = await seller();
    expect(
      (await createKey(who, { expiresAt: new Date(t.now() - 1000).toISOString() })).statusCode,
    ).toBe(400);
    expect((await createKey(who, { scopes: ['admin'] })).statusCode).toBe(400);
    expect((await createKey(who, { scopes: [] })).statusCode).toBe(400);
  });

  it('act with their scopes only: 403 insufficient_scope', async () => {
    const { who, methodId } = await seller();
    const { key } = await keyFor(who, { scopes: ['cards:read'] });
    expect((await v1(key, 'GET', '/api/v1/cards')).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['POST', '/api/v1/cards', eCode(methodId)],
      ['GET', '/api/v1/balance', undefined],
    ] as const) {
      const refused = await v1(key, method, url, payload);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().code).toBe('insufficient_scope');
    }
    expect(await cardsOf(who.user.id)).toBe(0);
  });

  it('a revocation is seen by a second instance on the same database at its next request', async () => {
    const { who } = await seller();
    const { key, id } = await keyFor(who);
    const second = await buildApp(t.config, t.database, { now: t.now });
    await second.ready();
    try {
      expect((await v1(key, 'GET', '/api/v1/balance', undefined, {}, second)).statusCode).toBe(200);
      await as(t.app, who, { method: 'DELETE', url: `/api/api-keys/${id}` });
      const after = await v1(key, 'GET', '/api/v1/balance', undefined, {}, second);
      expect(after.statusCode).toBe(401);
      expect(after.json().code).toBe('invalid_api_key');
    } finally {
      await second.close();
    }
  });

  it("never reach staff routes or the account's settings (the access matrix)", async () => {
    const { who } = await seller();
    const { key } = await keyFor(who);
    const routes: [string, string, object?][] = [
      ['GET', '/api/admin/transactions'],
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/ledger/trial-balance'],
      ['GET', '/api/auth/user'],
      ['PATCH', '/api/profile', { firstName: 'Mallory' }],
      ['POST', '/api/password/change', { currentPassword: 'x', newPassword: 'another long one' }],
      ['POST', '/api/account/email', { email: 'mallory@example.com', password: 'x' }],
      ['GET', '/api/payment-methods'],
      [
        'POST',
        '/api/payment-methods',
        { type: 'paypal', accountName: 'M', identifier: 'm@example.com' },
      ],
      ['POST', '/api/two-factor/setup'],
      ['POST', '/api/two-factor/disable', { code: '000000' }],
      ['DELETE', '/api/account', { password: 'x' }],
      ['POST', '/api/account/export'],
      ['GET', '/api/api-keys'],
      ['POST', '/api/api-keys', { name: 'More', scopes: ALL_SCOPES }],
      ['POST', '/api/transactions', { cardType: 'Amazon' }],
      ['GET', '/api/transactions'],
      ['GET', '/api/balance'],
    ];
    for (const [method, url, payload] of routes) {
      const answer = await t.app.inject({
        method: method as 'GET',
        url,
        payload,
        headers: bearer(key),
      });
      expect([401, 404], `${method} ${url}: ${answer.statusCode}`).toContain(answer.statusCode);
    }
    // Staff's own session does not open the partner API either: it is keys only.
    expect((await as(t.app, staff, { method: 'GET', url: '/api/v1/balance' })).statusCode).toBe(
      401,
    );
  });
});

describe('/api/v1', () => {
  it('quotes without creating anything', async () => {
    const { who } = await seller();
    const { key } = await keyFor(who);
    const quote = await v1(key, 'POST', '/api/v1/quotes', {
      brand: 'amazon',
      value: '100',
      format: 'egift',
    });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({
      brand: 'Amazon',
      value: '100.00',
      format: 'egift',
      tier: null,
    });
    const { rate, payout, minimum } = quote.json();
    expect(payout).toMatch(/^\d+\.\d{2}$/);
    expect(Number(payout)).toBeCloseTo(Number(rate) * 100, 2);
    expect(minimum).toMatch(/^\d+\.\d{2}$/);
    const low = await v1(key, 'POST', '/api/v1/quotes', {
      brand: 'Amazon',
      value: '1',
      format: 'egift',
    });
    expect(low.statusCode).toBe(400);
    expect(low.json().code).toBe('invalid_request');
    expect(await cardsOf(who.user.id)).toBe(0);
  });

  it('quotes the rate tier a card of that format and value is sold at (decision 130)', async () => {
    const { who, methodId } = await seller();
    const { key } = await keyFor(who);
    const tiers = (list: unknown[]) =>
      as(t.app, staff, { method: 'PUT', url: '/api/admin/rates/Xbox', payload: { tiers: list } });
    expect(
      (await tiers([{ format: 'egift', minValue: '50', maxValue: '150', rate: '0.7' }])).statusCode,
    ).toBe(200);
    try {
      const quoted = async (value: string, format: string) =>
        (await v1(key, 'POST', '/api/v1/quotes', { brand: 'Xbox', value, format })).json();
      expect(await quoted('150', 'egift')).toMatchObject({
        rate: '0.70',
        payout: '105.00',
        tier: 'E-code, $50–$150: 70%',
      });
      // Outside the band, or another format: the brand rate, no tier.
      expect(await quoted('150.01', 'egift')).toMatchObject({ rate: '0.88', tier: null });
      expect(await quoted('100', 'physical')).toMatchObject({ rate: '0.88', tier: null });
      // The card sold at the quote keeps the tier's rate.
      const sold = await v1(
        key,
        'POST',
        '/api/v1/cards',
        eCode(methodId, { brand: 'Xbox', value: '100', reference: 'tiered' }),
      );
      expect(sold.statusCode, sold.body).toBe(201);
      const [row] = await t.database.db
        .select({ payoutRate: transactions.payoutRate })
        .from(transactions)
        .where(eq(transactions.id, sold.json().id));
      expect(Number(row!.payoutRate)).toBe(0.7);
    } finally {
      expect((await tiers([])).statusCode).toBe(200);
    }
  });

  it('sells an e-code without photos, echoes the reference, and reads it back', async () => {
    const { who, methodId } = await seller();
    const { key } = await keyFor(who);
    const body = eCode(methodId, { reference: 'order-42', pin: '1234' });
    const created = await v1(key, 'POST', '/api/v1/cards', body);
    expect(created.statusCode, created.body).toBe(201);
    const card = created.json();
    expect(card).toMatchObject({
      reference: 'order-42',
      brand: 'Amazon',
      value: '100.00',
      format: 'egift',
      status: 'pending',
      paymentStatus: 'pending',
      codeLast4: body.code.replaceAll('-', '').toUpperCase().slice(-4),
    });
    expect(created.body).not.toContain(body.code);
    const read = await v1(key, 'GET', `/api/v1/cards/${card.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(card);
    // The web app shows the same card.
    const web = (await as(t.app, who, { method: 'GET', url: '/api/transactions' })).json();
    expect(web.map((c: { id: string }) => c.id)).toContain(card.id);

    const list = await v1(key, 'GET', '/api/v1/cards?status=pending');
    expect(list.json().data.map((c: { id: string }) => c.id)).toEqual([card.id]);
    expect((await v1(key, 'GET', '/api/v1/cards?status=completed')).json().data).toEqual([]);
    const other = await seller();
    const otherKey = await keyFor(other.who);
    expect((await v1(otherKey.key, 'GET', `/api/v1/cards/${card.id}`)).statusCode).toBe(404);
    expect((await v1(key, 'GET', '/api/v1/cards/not-a-uuid')).json().code).toBe('not_found');
  });

  it('pages the list with a cursor', async () => {
    const { who, methodId } = await seller();
    const { key } = await keyFor(who);
    for (let i = 0; i < 3; i++) {
      expect((await v1(key, 'POST', '/api/v1/cards', eCode(methodId))).statusCode).toBe(201);
    }
    const first = (await v1(key, 'GET', '/api/v1/cards?limit=2')).json();
    expect(first.data).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (
      await v1(key, 'GET', `/api/v1/cards?limit=2&cursor=${first.nextCursor}`)
    ).json();
    expect(second.data).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    const bad = await v1(key, 'GET', '/api/v1/cards?cursor=nonsense');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('invalid_request');
  });

  it('refuses a physical card without photos, and validates with a code', async () => {
    const { who, methodId } = await seller();
    const { key } = await keyFor(who);
    const physical = await v1(
      key,
      'POST',
      '/api/v1/cards',
      eCode(methodId, { format: 'physical' }),
    );
    expect(physical.statusCode).toBe(400);
    expect(physical.json()).toMatchObject({
      code: 'invalid_request',
      errors: { imageUrls: expect.any(String) },
    });
    const noCode = await v1(key, 'POST', '/api/v1/cards', { ...eCode(methodId), code: '' });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().errors.code).toBe('code is required');
    // A photo the seller uploaded in the web app may come with a physical card.
    const image = await uploadCardImage(t.app, who);
    const withPhoto = await v1(
      key,
      'POST',
      '/api/v1/cards',
      eCode(methodId, { format: 'physical', imageUrls: [image] }),
    );
    expect(withPhoto.statusCode, withPhoto.body).toBe(201);
  });

  it("applies the seller's limits and standing exactly as the web form does", async () => {
    const { who, methodId } = await seller();
    const { key } = await keyFor(who);
    const over = await v1(key, 'POST', '/api/v1/cards', eCode(methodId, { value: '10000.01' }));
    expect(over.statusCode).toBe(403);
    expect(over.json().code).toBe(LIMIT_REFUSAL_CODE);
    const web = await as(t.app, who, {
      method: 'POST',
      url: '/api/transactions',
      payload: {
        ...CARD,
        cardValue: '10000.01',
        paymentMethodId: methodId,
        imageUrls: [await uploadCardImage(t.app, who)],
      },
    });
    expect(web.statusCode).toBe(403);
    expect(web.json().message).toBe(over.json().message);

    await t.database.db
      .update(users)
      .set({ standing: 'suspended' })
      .where(eq(users.id, who.user.id));
    const suspended = await v1(key, 'POST', '/api/v1/cards', eCode(methodId));
    expect(suspended.statusCode).toBe(403);
    expect(suspended.json().code).toBe('account_suspended');
    expect(await cardsOf(who.user.id)).toBe(0);
  });

  it('reads the balance as the web app does', async () => {
    const { who } = await seller();
    const { key } = await keyFor(who);
    const api = await v1(key, 'GET', '/api/v1/balance');
    const web = await as(t.app, who, { method: 'GET', url: '/api/balance' });
    expect(api.statusCode).toBe(200);
    expect(api.json()).toEqual(web.json());
  });
});

describe('Idempotency-Key', () => {
  it('10 identical POSTs at once create one card; the others replay it or get 409', async () => {
    const { who, methodId } = await seller();
    const { key } = await keyFor(who);
    const body = eCode(methodId, { reference: 'retry-me' });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        v1(key, 'POST', '/api/v1/cards', body, { 'idempotency-key': 'order-1' }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      statuses.join(),
    ).toBe(true);
    const created = answers.filter((a) => a.statusCode === 201);
    expect(created.filter((a) => a.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    const ids = new Set(created.map((a) => a.json().id));
    expect(ids.size).toBe(1);
    for (const busy of answers.filter((a) => a.statusCode === 409)) {
      expect(busy.json().code).toBe('idempotency_in_progress');
    }
    expect(await cardsOf(who.user.id)).toBe(1);

    // Sent again later: the first answer, status and body, marked as replayed.
    const again = await v1(key, 'POST', '/api/v1/cards', body, { 'idempotency-key': 'order-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe([...ids][0]);

    const other = await v1(
      key,
      'POST',
      '/api/v1/cards',
      { ...body, value: '50' },
      {
        'idempotency-key': 'order-1',
      },
    );
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('idempotency_key_reused');
    expect(await cardsOf(who.user.id)).toBe(1);

    const tooLong = await v1(key, 'POST', '/api/v1/cards', body, {
      'idempotency-key': 'x'.repeat(256),
    });
    expect(tooLong.statusCode).toBe(400);
  });

  it('replays a refusal too, and holds across instances; a key expires after 24 hours', async () => {
    const { who, methodId } = await seller();
    const { key } = await keyFor(who);
    const over = eCode(methodId, { value: '10000.01' });
    const first = await v1(key, 'POST', '/api/v1/cards', over, { 'idempotency-key': 'big' });
    expect(first.statusCode).toBe(403);
    const second = await buildApp(t.config, t.database, { now: t.now });
    await second.ready();
    try {
      const replay = await v1(
        key,
        'POST',
        '/api/v1/cards',
        over,
        { 'idempotency-key': 'big' },
        second,
      );
      expect(replay.statusCode).toBe(403);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json()).toEqual(first.json());
    } finally {
      await second.close();
    }
    t.advance(24 * 60 * 60 * 1000 + 1000);
    const fresh = await v1(key, 'POST', '/api/v1/cards', eCode(methodId), {
      'idempotency-key': 'big',
    });
    expect(fresh.statusCode, fresh.body).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
  });

  it("makes the web app's POST /api/transactions safe to retry", async () => {
    const { who, methodId } = await seller(0);
    const payload = {
      ...CARD,
      paymentMethodId: methodId,
      imageUrls: [await uploadCardImage(t.app, who)],
    };
    const send = () =>
      as(t.app, who, {
        method: 'POST',
        url: '/api/transactions',
        payload,
        headers: { 'idempotency-key': 'web-retry' },
      });
    const [a, b] = await Promise.all([send(), send()]);
    const again = await send();
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect([a.statusCode, b.statusCode].sort()).toEqual(
      a.statusCode === 409 || b.statusCode === 409 ? [201, 409] : [201, 201],
    );
    expect(await cardsOf(who.user.id)).toBe(1);
  });
});

describe('per-key limits', () => {
  it('each key has its own count: one key refused with 429 while another goes on', async () => {
    const { who } = await seller();
    const [one, two] = [(await keyFor(who)).key, (await keyFor(who)).key];
    const limits = t.app.config.limits;
    const usual = limits.apiKeyRequestsPerMinute;
    limits.apiKeyRequestsPerMinute = 3;
    try {
      const get = (key: string) => v1(key, 'GET', '/api/v1/balance').then((a) => a.statusCode);
      expect([await get(one), await get(one), await get(one)]).toEqual([200, 200, 200]);
      const refused = await v1(one, 'GET', '/api/v1/balance');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('rate_limited');
      expect(refused.headers['retry-after']).toBeDefined();
      expect(await get(two)).toBe(200);
      // The next minute counts anew.
      t.advance(61_000);
      expect(await get(one)).toBe(200);
    } finally {
      limits.apiKeyRequestsPerMinute = usual;
    }
  });
});

describe('the partner OpenAPI document', () => {
  it('has the /api/v1 routes only, bearer security and examples', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const paths = Object.keys(document.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/quotes',
        '/api/v1/cards',
        '/api/v1/cards/{id}',
        '/api/v1/balance',
        '/api/v1/webhook-endpoints',
        '/api/v1/webhook-endpoints/{id}/deliveries',
        '/api/v1/webhook-endpoints/{id}/test',
      ]),
    );
    expect(paths.every((p) => p.startsWith('/api/v1/'))).toBe(true);
    expect(document.components.securitySchemes.apiKey).toMatchObject({ scheme: 'bearer' });
    const create = document.paths['/api/v1/cards'].post;
    expect(create.security).toEqual([{ apiKey: [] }]);
    expect(create.requestBody.content['application/json'].example).toMatchObject({
      format: 'egift',
      reference: expect.any(String),
    });
    // Every event an endpoint may take, with the body its deliveries carry.
    expect(Object.keys(document.webhooks).sort()).toEqual(
      ['card.updated', 'clawback.created', 'payout.updated'].sort(),
    );
    const payout =
      document.webhooks['payout.updated'].post.requestBody.content['application/json'].schema;
    expect(payout.required).toEqual(['id', 'type', 'timestamp', 'data']);
    expect(Object.keys(payout.properties.data.properties)).toEqual(
      expect.arrayContaining(['rail', 'amount', 'status', 'reference', 'cardIds']),
    );
    const clawback =
      document.webhooks['clawback.created'].post.requestBody.content['application/json'].schema;
    expect(clawback.properties.data.properties.card).toBeDefined();
  });
});

describe('POST /api/v1/cards/bulk', () => {
  it('sells 500 rows in order, refusing 3 bad ones with the single route’s code and message', async () => {
    const { who, methodId } = await seller();
    const { key } = await keyFor(who);
    const cards: object[] = Array.from({ length: 500 }, (_, i) =>
      eCode(methodId, { value: '25', reference: `row-${i}` }),
    );
    cards[10] = { ...cards[10], code: '' };
    cards[250] = { ...cards[250], brand: 'Other' };
    cards[499] = { ...cards[499], paymentMethodId: '00000000-0000-4000-8000-000000000000' };
    const single = await v1(key, 'POST', '/api/v1/cards', cards[499]);
    const bulk = await v1(key, 'POST', '/api/v1/cards/bulk', { cards });
    expect(bulk.statusCode, bulk.body.slice(0, 300)).toBe(200);
    const { results } = bulk.json();
    expect(results).toHaveLength(500);
    expect(results.map((r: { index: number }) => r.index)).toEqual([...Array(500).keys()]);
    const refused = results.filter((r: { status: string }) => r.status === 'refused');
    expect(refused.map((r: { index: number }) => r.index)).toEqual([10, 250, 499]);
    expect(refused[0]).toMatchObject({ code: 'invalid_request', message: 'code is required' });
    expect(refused[2]).toMatchObject({ code: single.json().code, message: single.json().message });
    expect(await cardsOf(who.user.id)).toBe(497);
    const row = results[3];
    const read = (await v1(key, 'GET', `/api/v1/cards/${row.id}`)).json();
    expect(read.reference).toBe('row-3');
  }, 240_000);

  it('counts limits as if the rows came one by one: refused from the row that goes over', async () => {
    const { who, methodId } = await seller();
    const { key } = await keyFor(who);
    // Level 2 sells 25,000.00 a day: five cards of 5,000.00, then every further row is refused.
    const cards = Array.from({ length: 7 }, () => eCode(methodId, { value: '5000' }));
    const { results } = (await v1(key, 'POST', '/api/v1/cards/bulk', { cards })).json();
    expect(results.map((r: { status: string }) => r.status)).toEqual([
      'created',
      'created',
      'created',
      'created',
      'created',
      'refused',
      'refused',
    ]);
    expect(results[5].code).toBe(LIMIT_REFUSAL_CODE);
    const single = await v1(key, 'POST', '/api/v1/cards', eCode(methodId, { value: '5000' }));
    expect(single.json().message).toBe(results[5].message);
  });

  it('takes the same rows as a CSV file', async () => {
    const { who, methodId } = await seller();
    const { key } = await keyFor(who);
    const csv = [
      'brand,value,format,code,pin,paymentMethodId,reference',
      `Amazon,100,egift,CSV-AAAA-0001,,${methodId},a-1`,
      `Amazon,1,egift,CSV-AAAA-0002,,${methodId},a-2`,
      `Target,50,egift,CSV-AAAA-0003,9999,${methodId},a-3`,
    ].join('\n');
    const form = multipart(Buffer.from(csv), 'cards.csv', 'text/csv');
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cards/bulk',
      payload: form.payload,
      headers: { ...form.headers, ...bearer(key) },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().results.map((r: { status: string }) => r.status)).toEqual([
      'created',
      'refused',
      'created',
    ]);
    expect(answer.json().results[1].code).toBe('invalid_request');
  });
});
