import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRequestDeadline } from './request-deadline';

/** Longer than the idle limit below: the time a slow answer (a bulk of 500 cards) takes. */
const WORK_MS = 1_500;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  // An idle limit of 1 s, as the server sets it from REQUEST_IDLE_SECONDS.
  app = Fastify({ connectionTimeout: 1_000 });
  registerRequestDeadline(app, 5);
  app.get('/slow', async () => {
    await sleep(WORK_MS);
    return { done: true };
  });
  app.post('/slow', async (request) => {
    await sleep(WORK_MS);
    return { echoed: request.body };
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

describe('the idle limit', () => {
  it('does not cut a request that is all in while the server works on its answer', async () => {
    const got = await fetch(`${base}/slow`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ done: true });
  });

  it('does not cut a request with a body while the server works on its answer', async () => {
    const got = await fetch(`${base}/slow`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cards: 500 }),
    });
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ echoed: { cards: 500 } });
  });
});
