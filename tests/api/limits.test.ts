import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { openDatabase } from '../../src/server/db/client';
import { withTestApp } from './builders';
import {
  as,
  DEFAULT_LIMITS,
  fixture,
  freshAddress,
  multipart,
  type SignedIn,
  sessionCookie,
  setUpTestApp,
  uniqueEmail,
} from './helpers';

const t = setUpTestApp({ limits: DEFAULT_LIMITS });

async function signUpFrom(
  app: FastifyInstance,
  remoteAddress: string,
  password = 'right password',
) {
  const email = uniqueEmail();
  const response = await app.inject({
    method: 'POST',
    url: '/api/signup',
    payload: { email, password, firstName: 'Lee', lastName: 'Limit' },
    remoteAddress,
  });
  expect(response.statusCode).toBe(200);
  return { cookie: sessionCookie(response)!, user: response.json() } as SignedIn;
}

const signIn = (
  app: FastifyInstance,
  email: string,
  password: string,
  remoteAddress: string,
  headers: Record<string, string> = {},
) =>
  app.inject({
    method: 'POST',
    url: '/api/signin',
    payload: { email, password },
    remoteAddress,
    headers,
  });

function expectRefused(
  response: { statusCode: number; headers: Record<string, unknown>; json(): { message: string } },
  message: RegExp,
) {
  expect(response.statusCode).toBe(429);
  expect(response.json().message).toMatch(message);
  expect(response.json().message).toMatch(/Try again in \d+ (second|minute)s?\.$/);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

describe('wrong passwords', () => {
  it('refuses an address after 10 failures in 15 minutes, even with the right password, and only that address', async () => {
    const address = freshAddress();
    const { user } = await signUpFrom(t.app, address);
    for (let i = 0; i < 10; i++) {
      expect((await signIn(t.app, user.email, 'wrong password', address)).statusCode).toBe(401);
    }
    expectRefused(
      await signIn(t.app, user.email, 'right password', address),
      /^Too many failed sign-in attempts from your network\./,
    );
    // Another account from that address is refused too: the address is what guessed.
    expect((await signIn(t.app, uniqueEmail(), 'anything', address)).statusCode).toBe(429);
    expect((await signIn(t.app, user.email, 'right password', freshAddress())).statusCode).toBe(
      200,
    );

    t.advance(15 * 60 * 1000);
    expect((await signIn(t.app, user.email, 'right password', address)).statusCode).toBe(200);
  });

  it('refuses the 21st wrong password for one account from 21 addresses, then every password for the hour', async () => {
    const { user } = await signUpFrom(t.app, freshAddress());
    const guessers = Array.from({ length: 21 }, freshAddress);
    for (const address of guessers.slice(0, 20)) {
      expect((await signIn(t.app, user.email, 'wrong password', address)).statusCode).toBe(401);
    }
    expectRefused(
      await signIn(t.app, user.email, 'wrong password', guessers[20]!),
      /^Too many failed sign-in attempts for this account\. If it is yours, we have emailed you a link to sign in\./,
    );
    // Locked: no password is checked, from an address that guessed or from a clean one (the
    // owner signs in with the emailed link instead: guessing.test.ts).
    expect((await signIn(t.app, user.email, 'right password', guessers[3]!)).statusCode).toBe(429);
    expect((await signIn(t.app, user.email, 'right password', freshAddress())).statusCode).toBe(
      429,
    );

    t.advance(60 * 60 * 1000);
    expect((await signIn(t.app, user.email, 'wrong password', freshAddress())).statusCode).toBe(
      401,
    );
    expect((await signIn(t.app, user.email, 'right password', freshAddress())).statusCode).toBe(
      200,
    );
  });

  it('answers an unknown email exactly as a known one', async () => {
    const known = (await signUpFrom(t.app, freshAddress())).user.email;
    const unknown = uniqueEmail('nobody');
    const answers = async (email: string) => {
      const seen: string[] = [];
      for (let i = 0; i < 22; i++) {
        const response = await signIn(t.app, email, 'wrong password', freshAddress());
        seen.push(`${response.statusCode} ${response.json().message}`);
      }
      return seen;
    };
    const forKnown = await answers(known);
    expect(forKnown.at(-1)).toMatch(/^429 Too many failed sign-in attempts for this account/);
    expect(await answers(unknown)).toEqual(forKnown);
  });

  it('does not let X-Forwarded-For choose the address behind one trusted proxy', async () => {
    await withTestApp(
      async (behindProxy) => {
        const proxy = '10.0.0.2';
        const email = uniqueEmail('proxied');
        let last = 0;
        for (let i = 0; i < 11; i++) {
          // The attacker forges a new leftmost hop each time; the proxy appends the real client.
          const response = await signIn(behindProxy.app, email, 'wrong password', proxy, {
            'x-forwarded-for': `192.0.2.${i + 1}, 198.18.0.7`,
          });
          last = response.statusCode;
        }
        expect(last).toBe(429);
        // Another real client behind the same proxy is not affected.
        const other = await signIn(behindProxy.app, email, 'wrong password', proxy, {
          'x-forwarded-for': '198.18.0.8',
        });
        expect(other.statusCode).toBe(401);
      },
      { limits: DEFAULT_LIMITS, trustProxy: 1 },
    );
  });

  it('keeps its counts across a restart on the same database', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cb-limits-'));
    const config = { ...t.config, dataDir: dir };
    const start = async () => {
      const database = await openDatabase({ pgliteDir: path.join(dir, 'db') });
      await database.migrate();
      const app = await buildApp(config, database);
      await app.ready();
      const close = async () => {
        await app.close();
        await database.close();
      };
      return { app, close };
    };
    try {
      const first = await start();
      const email = uniqueEmail('restart');
      for (let i = 0; i < 10; i++) {
        expect((await signIn(first.app, email, 'wrong', '192.0.2.77')).statusCode).toBe(401);
      }
      await first.close();
      const second = await start();
      try {
        expect((await signIn(second.app, email, 'wrong', '192.0.2.77')).statusCode).toBe(429);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // two starts of an embedded database on disk, each created and migrated afresh
});

describe('floods', () => {
  it('refuses the 11th sign-up from one address in an hour, existing-email probes included', async () => {
    const address = freshAddress();
    const taken = (await signUpFrom(t.app, freshAddress())).user.email;
    for (let i = 0; i < 5; i++) await signUpFrom(t.app, address);
    for (let i = 0; i < 5; i++) {
      const probe = await t.app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { email: taken, password: 'whatever 123', firstName: 'P', lastName: 'Probe' },
        remoteAddress: address,
      });
      expect(probe.statusCode).toBe(409);
    }
    const eleventh = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { email: uniqueEmail(), password: 'whatever 123', firstName: 'E', lastName: 'L' },
      remoteAddress: address,
    });
    expectRefused(eleventh, /^Too many sign-ups from your network\./);
    await signUpFrom(t.app, freshAddress());
  });

  it('refuses the 31st chat message in a minute, for that customer only', async () => {
    const flooder = await signUpFrom(t.app, freshAddress());
    const send = (who: SignedIn, message: string) =>
      as(t.app, who, { method: 'POST', url: '/api/chat/messages', payload: { message } });
    for (let i = 0; i < 30; i++) expect((await send(flooder, `m${i}`)).statusCode).toBe(201);
    expectRefused(await send(flooder, 'one more'), /^You are sending messages too fast\./);
    expect((await send(await signUpFrom(t.app, freshAddress()), 'hello')).statusCode).toBe(201);
    t.advance(60 * 1000);
    expect((await send(flooder, 'later')).statusCode).toBe(201);
  });

  const fileTicket = (who: SignedIn) =>
    as(t.app, who, {
      method: 'POST',
      url: '/api/support-tickets',
      payload: { email: who.user.email, subject: 'Pending', message: 'Where is my payout?' },
    });

  it('refuses the 11th ticket in an hour', async () => {
    const who = await signUpFrom(t.app, freshAddress());
    for (let i = 0; i < 10; i++) expect((await fileTicket(who)).statusCode).toBe(201);
    expectRefused(await fileTicket(who), /^You have filed many tickets in the last hour/);
  });

  it('refuses the 31st ticket reply in an hour, for that customer only', async () => {
    const who = await signUpFrom(t.app, freshAddress());
    const other = await signUpFrom(t.app, freshAddress());
    const ticket = (await fileTicket(who)).json();
    const theirs = (await fileTicket(other)).json();
    const reply = (sender: SignedIn, id: string) =>
      as(t.app, sender, {
        method: 'POST',
        url: `/api/support-tickets/${id}/replies`,
        payload: { message: 'Any news?' },
      });
    for (let i = 0; i < 30; i++) expect((await reply(who, ticket.id)).statusCode).toBe(201);
    expectRefused(
      await reply(who, ticket.id),
      /^You have sent many replies in the last hour; we will answer those first\./,
    );
    expect((await reply(other, theirs.id)).statusCode).toBe(201);
  });

  it('refuses the 61st upload in an hour, card images and chat attachments together', async () => {
    const who = await signUpFrom(t.app, freshAddress());
    const upload = (url: string) =>
      as(t.app, who, {
        method: 'POST',
        url,
        ...multipart(fixture('card-front.jpg'), 'card.jpg', 'image/jpeg'),
      });
    for (let i = 0; i < 60; i++) {
      const url = i % 2 ? '/api/chat/upload-attachment' : '/api/upload-card-image';
      expect((await upload(url)).statusCode).toBe(200);
    }
    const refused = await upload('/api/upload-card-image');
    expectRefused(refused, /^You have uploaded many files in the last hour\./);
    expect(refused.json().error).toBe(refused.json().message);
  });
});

describe('the hourly sweep', () => {
  it('removes windows that ended and keeps the ones still counting', async () => {
    await withTestApp(
      async (sweeping) => {
        const { counters } = sweeping.app;
        await counters.hit('short', 60 * 1000);
        await counters.hit('long', 60 * 60 * 1000);
        sweeping.advance(2 * 60 * 1000);
        expect(await counters.deleteExpired()).toBe(1);
        expect((await counters.peek('long')).current).toBe(1);
        expect((await counters.peek('short')).current).toBe(0);
      },
      { limits: DEFAULT_LIMITS },
    );
  });
});
