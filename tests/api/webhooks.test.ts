import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { generate } from 'selfsigned';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { mailOutbox, users } from '../../src/server/db/schema';
import { setUpAppWithStaff } from './builders';
import { addPaymentMethod, as, reviewCard, type SignedIn, signInAs, signUp } from './helpers';

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A real HTTPS receiver on 127.0.0.1 with a self-signed certificate the app is told to trust:
 * `/ok` answers 200, `/flaky` 500 twice then 200, `/down` always 500, `/hang` never answers,
 * `/redirect` a 302 to `/ok`.
 */
async function startReceiver() {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    days: 1,
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  } as never);
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  let flaky = 0;
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const path = request.url ?? '';
      received.push({
        path,
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
      });
      for (const wake of waiters) wake();
      if (path === '/hang') return;
      if (path === '/redirect') {
        response.writeHead(302, { location: `https://127.0.0.1:${port()}/ok` }).end();
        return;
      }
      if (path === '/down' || (path === '/flaky' && ++flaky <= 2)) {
        response.writeHead(500).end('not yet');
        return;
      }
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = () => (server.address() as AddressInfo).port;
  return {
    ca: pems.cert,
    url: (path: string) => `https://127.0.0.1:${port()}${path}`,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    /** Waits until `count` requests reached `path` (woken by each arrival, not by a timer). */
    async waitFor(path: string, count = 1) {
      while (received.filter((r) => r.path === path).length < count) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
        });
      }
      return received.filter((r) => r.path === path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const { t, staff } = setUpAppWithStaff(() => ({
  webhooks: { allowPrivate: true, ca: receiver.ca },
}));

async function partner() {
  const who = await signUp(t.app);
  await t.database.db.update(users).set({ verificationLevel: 2 }).where(eq(users.id, who.user.id));
  const method = await addPaymentMethod(t.app, who);
  const created = await as(t.app, who, {
    method: 'POST',
    url: '/api/api-keys',
    payload: { name: 'Hooks', scopes: ['cards:read', 'cards:write', 'webhooks:manage'] },
  });
  expect(created.statusCode, created.body).toBe(201);
  const key = created.json().key as string;
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { authorization: `Bearer ${key}` } });
  return { who, key, methodId: method.id, call };
}

async function endpoint(call: Awaited<ReturnType<typeof partner>>['call'], path: string) {
  const created = await call('POST', '/api/v1/webhook-endpoints', {
    url: receiver.url(path),
    events: ['card.updated'],
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as { id: string; secret: string };
}

const deliveries = async (call: Awaited<ReturnType<typeof partner>>['call'], id: string) =>
  (await call('GET', `/api/v1/webhook-endpoints/${id}/deliveries`)).json();

describe('webhooks', () => {
  it("sends a card's change, signed, with the card as the API answers it", async () => {
    const { call, methodId } = await partner();
    const hook = await endpoint(call, '/ok');
    expect(hook.secret).toMatch(/^whsec_/);
    const card = (
      await call('POST', '/api/v1/cards', {
        brand: 'Amazon',
        value: '100',
        format: 'egift',
        code: 'AMZN-SIGNED-0001',
        paymentMethodId: methodId,
        reference: 'order-7',
      })
    ).json();
    const before = receiver.at('/ok').length;
    const approved = await reviewCard(t.app, staff, card.id, { status: 'processing' });
    expect(approved.statusCode, approved.body).toBe(200);
    await t.app.webhooks.deliverDue();
    const [message] = (await receiver.waitFor('/ok', before + 1)).slice(before);
    const event = new Webhook(hook.secret).verify(message!.body, message!.headers) as {
      id: string;
      type: string;
      timestamp: string;
      data: { id: string; status: string; reference: string };
    };
    expect(event.type).toBe('card.updated');
    expect(event.id).toMatch(/^evt_/);
    const read = (await call('GET', `/api/v1/cards/${card.id}`)).json();
    expect(event.data).toEqual(read);
    expect(event.data).toMatchObject({ status: 'processing', reference: 'order-7' });
    // Another secret does not verify it.
    expect(() =>
      new Webhook(`whsec_${Buffer.from('x'.repeat(32)).toString('base64')}`).verify(
        message!.body,
        message!.headers,
      ),
    ).toThrow();
    const log = await deliveries(call, hook.id);
    expect(log[0]).toMatchObject({
      eventType: 'card.updated',
      status: 'delivered',
      lastStatus: 200,
    });
  });

  it('retries a receiver answering 500 twice, then 200, under the same webhook-id', async () => {
    const { call } = await partner();
    const hook = await endpoint(call, '/flaky');
    const test = await call('POST', `/api/v1/webhook-endpoints/${hook.id}/test`);
    expect(test.statusCode, test.body).toBe(202);
    await t.app.webhooks.deliverDue();
    await receiver.waitFor('/flaky', 1);
    expect((await deliveries(call, hook.id))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatus: 500,
    });
    // Nothing is due before the schedule's 5 s.
    await t.app.webhooks.deliverDue();
    expect(receiver.at('/flaky')).toHaveLength(1);
    t.advance(5_000);
    await t.app.webhooks.deliverDue();
    await receiver.waitFor('/flaky', 2);
    expect((await deliveries(call, hook.id))[0]).toMatchObject({ attempts: 2, lastStatus: 500 });
    t.advance(5 * 60_000);
    await t.app.webhooks.deliverDue();
    const tries = await receiver.waitFor('/flaky', 3);
    expect((await deliveries(call, hook.id))[0]).toMatchObject({
      eventType: 'webhook.test',
      status: 'delivered',
      attempts: 3,
      lastStatus: 200,
    });
    expect(new Set(tries.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const attempt of tries) new Webhook(hook.secret).verify(attempt.body, attempt.headers);
  });

  it('gives up on a receiver failing for 3 days: the endpoint disabled and its owner emailed once', async () => {
    const { who, call } = await partner();
    const down = await endpoint(call, '/down');
    const up = await endpoint(call, '/ok');
    // Sent at once with a delivery that succeeds: each outcome recorded as its own.
    await call('POST', `/api/v1/webhook-endpoints/${down.id}/test`);
    await call('POST', `/api/v1/webhook-endpoints/${up.id}/test`);
    await t.app.webhooks.deliverDue();
    expect((await deliveries(call, up.id))[0]).toMatchObject({
      status: 'delivered',
      lastStatus: 200,
    });
    expect((await deliveries(call, down.id))[0]).toMatchObject({
      status: 'pending',
      lastStatus: 500,
    });
    // Every try on the schedule, until 3 days have passed.
    for (let hours = 0; hours <= 80; hours++) {
      t.advance(60 * 60 * 1000);
      await t.app.webhooks.deliverDue();
    }
    const [given] = await deliveries(call, down.id);
    expect(given).toMatchObject({ status: 'failed', nextAttemptAt: null, lastStatus: 500 });
    // Tried hourly here: at once, then at 1, 2, 3, 5, 10 and 20 h (the schedule's steps), then
    // every 10 h to 70 h, whose next try would fall past the 3 days: 12 tries.
    expect(given.attempts).toBe(12);
    const listed = (await call('GET', '/api/v1/webhook-endpoints')).json() as {
      id: string;
      disabledAt: string | null;
    }[];
    expect(listed.find((e) => e.id === down.id)?.disabledAt).toEqual(expect.any(String));
    expect(listed.find((e) => e.id === up.id)?.disabledAt).toBeNull();
    const mail = await t.database.db
      .select({ template: mailOutbox.template })
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, who.user.email));
    expect(mail.filter((m) => m.template === 'webhook-endpoint-disabled')).toHaveLength(1);
  });

  it('cuts a receiver that hangs at 5 s', async () => {
    const { call } = await partner();
    const hook = await endpoint(call, '/hang');
    await call('POST', `/api/v1/webhook-endpoints/${hook.id}/test`);
    await t.app.webhooks.deliverDue();
    const [entry] = await deliveries(call, hook.id);
    expect(entry).toMatchObject({
      status: 'pending',
      lastStatus: null,
      lastError: 'No answer in 5 s',
    });
    expect(entry.lastDurationMs).toBeGreaterThanOrEqual(5000);
    expect(entry.lastDurationMs).toBeLessThan(6000);
  });

  it('does not follow a redirect', async () => {
    const { call } = await partner();
    const hook = await endpoint(call, '/redirect');
    const okBefore = receiver.at('/ok').length;
    await call('POST', `/api/v1/webhook-endpoints/${hook.id}/test`);
    await t.app.webhooks.deliverDue();
    await receiver.waitFor('/redirect', 1);
    expect((await deliveries(call, hook.id))[0]).toMatchObject({
      status: 'pending',
      lastStatus: 302,
    });
    expect(receiver.at('/ok')).toHaveLength(okBefore);
  });

  it('refuses a URL resolving to 127.0.0.1 without the flag, at registration and at delivery', async () => {
    const { call } = await partner();
    const hook = await endpoint(call, '/ok');
    t.app.config.webhooks.allowPrivate = false;
    try {
      for (const url of [
        receiver.url('/ok'),
        'https://localhost/hook',
        'https://169.254.169.254/',
        'http://example.com/',
      ]) {
        const refused = await call('POST', '/api/v1/webhook-endpoints', {
          url,
          events: ['card.updated'],
        });
        expect(refused.statusCode, url).toBe(400);
        expect(refused.json().errors.url).toEqual(expect.any(String));
      }
      const before = receiver.received.length;
      await call('POST', `/api/v1/webhook-endpoints/${hook.id}/test`);
      await t.app.webhooks.deliverDue();
      expect((await deliveries(call, hook.id))[0]).toMatchObject({
        status: 'pending',
        lastStatus: null,
        lastError: expect.stringContaining('public internet addresses'),
      });
      expect(receiver.received).toHaveLength(before);
    } finally {
      t.app.config.webhooks.allowPrivate = true;
    }
  });

  it('WEBHOOK_ALLOW_PRIVATE is refused in production', () => {
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        SESSION_SECRET: 'x'.repeat(64),
        DATA_ENCRYPTION_KEY: 'a'.repeat(64),
        WEBHOOK_ALLOW_PRIVATE: 'true',
      }),
    ).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
  });

  it('rotates the secret: both sign for 24 hours, then only the new one', async () => {
    const { call } = await partner();
    const hook = await endpoint(call, '/ok');
    const rotated = await call('POST', `/api/v1/webhook-endpoints/${hook.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const { secret } = rotated.json();
    expect(secret).not.toBe(hook.secret);
    const send = async () => {
      const before = receiver.at('/ok').length;
      await call('POST', `/api/v1/webhook-endpoints/${hook.id}/test`);
      await t.app.webhooks.deliverDue();
      return (await receiver.waitFor('/ok', before + 1)).at(-1)!;
    };
    const first = await send();
    new Webhook(secret).verify(first.body, first.headers);
    new Webhook(hook.secret).verify(first.body, first.headers);
    t.advance(24 * 60 * 60 * 1000 + 1000);
    const later = await send();
    new Webhook(secret).verify(later.body, later.headers);
    expect(() => new Webhook(hook.secret).verify(later.body, later.headers)).toThrow();
  });

  it('keeps endpoints to 5 per seller, their own, listed without secrets and deleted', async () => {
    const { call } = await partner();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await endpoint(call, `/ok?n=${i}`)).id);
    const sixth = await call('POST', '/api/v1/webhook-endpoints', {
      url: receiver.url('/ok'),
      events: ['card.updated'],
    });
    expect(sixth.statusCode).toBe(409);
    const list = await call('GET', '/api/v1/webhook-endpoints');
    expect(list.json().map((e: { id: string }) => e.id)).toEqual(ids);
    expect(list.body).not.toContain('whsec_');
    const other = await partner();
    expect((await other.call('DELETE', `/api/v1/webhook-endpoints/${ids[0]}`)).statusCode).toBe(
      404,
    );
    expect(
      (await other.call('GET', `/api/v1/webhook-endpoints/${ids[0]}/deliveries`)).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/v1/webhook-endpoints/${ids[0]}`)).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/webhook-endpoints')).json()).toHaveLength(4);
  });

  it('needs the webhooks:manage scope', async () => {
    const who: SignedIn = await signUp(t.app);
    await t.database.db
      .update(users)
      .set({ verificationLevel: 2 })
      .where(eq(users.id, who.user.id));
    const key = (
      await as(t.app, who, {
        method: 'POST',
        url: '/api/api-keys',
        payload: { name: 'Read only', scopes: ['cards:read'] },
      })
    ).json().key;
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/v1/webhook-endpoints',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('insufficient_scope');
  });
});

describe('webhooks in the profile (cookie session)', () => {
  it('a level-2 seller manages endpoints as the API does: created with its secret once, tested, logged, deleted', async () => {
    const { who, call } = await partner();
    const created = await as(t.app, who, {
      method: 'POST',
      url: '/api/webhook-endpoints',
      payload: {
        url: receiver.url('/ok?from=profile'),
        events: ['card.updated', 'payout.updated'],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const hook = created.json() as { id: string; secret: string; events: string[] };
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.events).toEqual(['card.updated', 'payout.updated']);
    // The same endpoint the key sees, without its secret.
    const listed = await as(t.app, who, { method: 'GET', url: '/api/webhook-endpoints' });
    expect(listed.json().map((e: { id: string }) => e.id)).toEqual([hook.id]);
    expect(listed.body).not.toContain('whsec_');
    expect((await call('GET', '/api/v1/webhook-endpoints')).json()[0].id).toBe(hook.id);

    const before = receiver.at('/ok?from=profile').length;
    const test = await as(t.app, who, {
      method: 'POST',
      url: `/api/webhook-endpoints/${hook.id}/test`,
    });
    expect(test.statusCode, test.body).toBe(202);
    await t.app.webhooks.deliverDue();
    const [message] = (await receiver.waitFor('/ok?from=profile', before + 1)).slice(before);
    expect(new Webhook(hook.secret).verify(message!.body, message!.headers)).toMatchObject({
      type: 'webhook.test',
    });
    const log = await as(t.app, who, {
      method: 'GET',
      url: `/api/webhook-endpoints/${hook.id}/deliveries`,
    });
    expect(log.json()[0]).toMatchObject({
      eventType: 'webhook.test',
      status: 'delivered',
      lastStatus: 200,
    });

    // Another seller reaches none of it.
    const other = await partner();
    for (const [method, url] of [
      ['GET', `/api/webhook-endpoints/${hook.id}/deliveries`],
      ['POST', `/api/webhook-endpoints/${hook.id}/test`],
      ['DELETE', `/api/webhook-endpoints/${hook.id}`],
    ] as const) {
      expect((await as(t.app, other.who, { method, url })).statusCode, url).toBe(404);
    }
    const deleted = await as(t.app, who, {
      method: 'DELETE',
      url: `/api/webhook-endpoints/${hook.id}`,
    });
    expect(deleted.statusCode).toBe(200);
    expect((await as(t.app, who, { method: 'GET', url: '/api/webhook-endpoints' })).json()).toEqual(
      [],
    );
  });

  it('is refused below level 2, signed out, and with a key instead of the session', async () => {
    const seller = await signUp(t.app);
    const refused = await as(t.app, seller, {
      method: 'POST',
      url: '/api/webhook-endpoints',
      payload: { url: receiver.url('/ok'), events: ['card.updated'] },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('verification_required');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/webhook-endpoints',
          payload: { url: receiver.url('/ok'), events: ['card.updated'] },
        })
      ).statusCode,
    ).toBe(401);
    const { key } = await partner();
    const withKey = await t.app.inject({
      method: 'GET',
      url: '/api/webhook-endpoints',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(withKey.statusCode).toBe(401);
  });
});

describe('payout.updated and clawback.created (decision 147)', () => {
  it("sends a payout's state and money taken back, each once its change commits, only to endpoints that take them", async () => {
    const { call, methodId } = await partner();
    // Staff signed in now: an earlier test moved the clock a day on, past the shared session.
    const staff = await signInAs(t, 'owner');
    const path = '/ok?events=money';
    const created = await call('POST', '/api/v1/webhook-endpoints', {
      url: receiver.url(path),
      events: ['payout.updated', 'clawback.created'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const hook = created.json() as { id: string; secret: string };
    const card = (
      await call('POST', '/api/v1/cards', {
        brand: 'Amazon',
        value: '100',
        format: 'egift',
        code: 'AMZN-MONEY-EVENTS-1',
        paymentMethodId: methodId,
      })
    ).json() as { id: string };
    expect((await reviewCard(t.app, staff, card.id, { status: 'processing' })).statusCode).toBe(
      200,
    );
    // card.updated is not among this endpoint's events.
    expect(await deliveries(call, hook.id)).toEqual([]);

    const payouts = (await as(t.app, staff, { method: 'GET', url: '/api/admin/payouts' })).json();
    const row = payouts.groups
      .flatMap((g: { cards: { id: string; amount: string }[] }) => g.cards)
      .find((c: { id: string }) => c.id === card.id);
    const sent = await as(t.app, staff, {
      method: 'POST',
      url: '/api/admin/payouts/mark-sent',
      payload: { items: [{ id: card.id, amount: row.amount }], payoutReference: 'PP-7781' },
    });
    expect(sent.json().sent, sent.body).toHaveLength(1);
    await t.app.webhooks.deliverDue();
    const [payoutMessage] = await receiver.waitFor(path, 1);
    const payoutEvent = new Webhook(hook.secret).verify(
      payoutMessage!.body,
      payoutMessage!.headers,
    ) as { type: string; data: Record<string, unknown> };
    expect(payoutEvent.type).toBe('payout.updated');
    expect(payoutEvent.data).toMatchObject({
      rail: 'manual',
      amount: '91.00',
      status: 'confirmed',
      reference: 'PP-7781',
      failureReason: null,
      cardIds: [card.id],
    });

    // A clawback refused (more than the card paid) writes no event: nothing committed.
    const refused = await as(t.app, staff, {
      method: 'POST',
      url: `/api/admin/transactions/${card.id}/clawback`,
      payload: { amount: '91.01', reason: 'already_redeemed' },
    });
    expect(refused.statusCode).toBe(400);
    expect(await deliveries(call, hook.id)).toHaveLength(1);

    const taken = await as(t.app, staff, {
      method: 'POST',
      url: `/api/admin/transactions/${card.id}/clawback`,
      payload: { amount: '10.00', reason: 'already_redeemed' },
    });
    expect(taken.statusCode, taken.body).toBe(201);
    await t.app.webhooks.deliverDue();
    const [, clawbackMessage] = await receiver.waitFor(path, 2);
    const clawbackEvent = new Webhook(hook.secret).verify(
      clawbackMessage!.body,
      clawbackMessage!.headers,
    ) as { type: string; data: Record<string, unknown> };
    expect(clawbackEvent.type).toBe('clawback.created');
    expect(clawbackEvent.data).toMatchObject({
      id: taken.json().id,
      cardId: card.id,
      amount: '10.00',
      outstanding: '10.00',
      reason: 'already_redeemed',
      note: null,
    });
    expect(clawbackEvent.data.card).toEqual((await call('GET', `/api/v1/cards/${card.id}`)).json());

    const log = await deliveries(call, hook.id);
    expect(log.map((d: { eventType: string; status: string }) => [d.eventType, d.status])).toEqual([
      ['clawback.created', 'delivered'],
      ['payout.updated', 'delivered'],
    ]);
  });
});
