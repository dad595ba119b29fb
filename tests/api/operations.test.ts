import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withTestApp } from './builders';
import {
  as,
  createTestApp,
  setUpTestApp,
  signUp,
  submitCard,
  type TestApp,
  uniqueEmail,
} from './helpers';

const lines: string[] = [];
const t = setUpTestApp({ logLevel: 'info' }, { logStream: { write: (line) => lines.push(line) } });

const get = (app: TestApp, url: string, headers: Record<string, string> = {}) =>
  app.app.inject({ method: 'GET', url, headers });
const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('health and readiness', () => {
  it('/healthz and /readyz answer without a session and without a log line', async () => {
    lines.length = 0;
    const health = await get(t, '/healthz');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await get(t, '/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: 'ok', storage: 'ok' });
    expect(ready.headers['set-cookie']).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it('answers 503 naming the part that fails: the database stopped, the storage gone', async () => {
    const broken = await createTestApp();
    try {
      const objects = path.join(broken.config.dataDir, 'objects');
      rmSync(objects, { recursive: true, force: true });
      writeFileSync(objects, 'not a folder');
      const noStorage = await get(broken, '/readyz');
      expect(noStorage.statusCode).toBe(503);
      expect(noStorage.json()).toEqual({
        status: 'unavailable',
        database: 'ok',
        storage: 'unavailable',
      });

      await broken.database.close();
      const noDatabase = await get(broken, '/readyz');
      expect(noDatabase.statusCode).toBe(503);
      expect(noDatabase.json()).toMatchObject({ status: 'unavailable', database: 'unavailable' });
      expect((await get(broken, '/healthz')).statusCode).toBe(200);
    } finally {
      await broken.app.close();
    }
  });

  it('answers 503 while shutting down', async () => {
    await withTestApp(async (closing) => {
      closing.app.draining = true;
      const ready = await get(closing, '/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'shutting down' });
    });
  });
});

describe('request ids and the operator log', () => {
  it('passes X-Request-Id on, or makes a random one, and returns it on every answer', async () => {
    const given = await get(t, '/api/auth/user', { 'x-request-id': 'lb-7f3a9c' });
    expect(given.statusCode).toBe(401);
    expect(given.headers['x-request-id']).toBe('lb-7f3a9c');
    const made = await get(t, '/api/auth/user');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await get(t, '/api/auth/user')).headers['x-request-id']).not.toBe(
      made.headers['x-request-id'],
    );
    const forged = await get(t, '/api/auth/user', { 'x-request-id': 'a\u0007b"} {"level":60' });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(logged().find((l) => l.reqId === 'lb-7f3a9c')).toMatchObject({ status: 401 });
  });

  it('logs sign-ins, failures and sign-outs with the account id, and never the email or password', async () => {
    lines.length = 0;
    const email = uniqueEmail('logged');
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { email, password: 'a fine password', firstName: 'Lo', lastName: 'Gged' },
    });
    const id = signup.json().id;
    const cookie = signup.headers['set-cookie'] as string;
    await t.app.inject({
      method: 'POST',
      url: '/api/signin',
      payload: { email, password: 'a wrong password' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/signin',
      payload: { email, password: 'a fine password' },
    });
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    const events = logged().filter((l) => l.event);
    expect(events).toEqual([
      expect.objectContaining({ event: 'signin', account: id, kind: 'user' }),
      expect.objectContaining({ event: 'signin_failed', account: id, kind: 'user' }),
      expect.objectContaining({ event: 'signin', account: id }),
      expect.objectContaining({ event: 'signout', account: id }),
    ]);
    const text = lines.join('');
    expect(text).not.toContain(email);
    expect(text).not.toContain('a fine password');
    expect(text).not.toContain('a wrong password');
  });
});

describe('metrics', () => {
  it('is a 404 when METRICS_TOKEN is unset', async () => {
    const response = await get(t, '/metrics');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found' });
  });

  it('answers Prometheus text only with the bearer token', async () => {
    const token = 'metrics-token-0123456789abcdef';
    await withTestApp(
      async (watched) => {
        expect((await get(watched, '/metrics')).statusCode).toBe(401);
        expect(
          (
            await get(watched, '/metrics', {
              authorization: 'Bearer metrics-token-0123456789abcdeX',
            })
          ).statusCode,
        ).toBe(401);
        const customer = await signUp(watched.app);
        await submitCard(watched.app, customer);
        await as(watched.app, customer, { method: 'GET', url: '/api/transactions/recent' });
        const response = await get(watched, '/metrics', { authorization: `Bearer ${token}` });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^text\/plain/);
        const text = response.body;
        expect(text).toMatch(
          /cardbridge_http_requests_total\{method="GET",route="\/api\/transactions\/recent",status="200"\} 1/,
        );
        expect(text).toContain('cardbridge_http_request_duration_seconds_bucket');
        expect(text).toMatch(/cardbridge_cards_submitted_total 1/);
        expect(text).toMatch(/cardbridge_review_queue_pending 1/);
        expect(text).toMatch(/cardbridge_db_pool_connections\{state="total"\} \d/);
        expect(text).toContain('nodejs_eventloop_lag_seconds');
        // Route patterns, never ids.
        expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}/);
      },
      { metricsToken: token },
    );
  });
});
