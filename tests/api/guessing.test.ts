import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { secretOf } from '../../scripts/lib/staff-sign-in';
import { upsertAdmin } from '../../src/server/common/accounts';
import { sessions } from '../../src/server/db/schema';
import { withTestApp } from './builders';
import {
  as,
  DEFAULT_LIMITS,
  freshAddress,
  freshCode,
  type SignedIn,
  sessionCookie,
  setUpTestApp,
  sidOf,
  signInStaff,
  uniqueEmail,
} from './helpers';
import { setUpMailServer, TEST_APP_URL } from './mail-server';

/**
 * Limits on guessing a secret, attacked as an attacker sends guesses: all at once (issue 25).
 * "Checked" is what reached the password or code check, counted from the hook those checks
 * publish on; without the hook every count below is 0 and the tests fail.
 */
const PASSWORD = 'right password 1';

const mail = setUpMailServer();
const t = setUpTestApp(() => ({ limits: DEFAULT_LIMITS, ...mail.appConfig() }));

const checked = { password: 0, code: 0, 'recovery-code': 0 };
const onChecked = (message: unknown) => {
  checked[(message as { kind: keyof typeof checked }).kind] += 1;
};
beforeEach(() => {
  checked.password = 0;
  checked.code = 0;
  checked['recovery-code'] = 0;
  subscribe('cardbridge:secret-checked', onChecked);
});
afterEach(() => {
  unsubscribe('cardbridge:secret-checked', onChecked);
});

async function newCustomer() {
  const email = uniqueEmail();
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/signup',
    payload: { email, password: PASSWORD, firstName: 'Gale', lastName: 'Guessed' },
    remoteAddress: freshAddress(),
  });
  expect(response.statusCode).toBe(200);
  return { cookie: sessionCookie(response)!, user: response.json() } as SignedIn;
}

const signIn = (
  email: string,
  password: string,
  remoteAddress: string,
  headers: Record<string, string> = {},
  url = '/api/signin',
) => t.app.inject({ method: 'POST', url, payload: { email, password }, remoteAddress, headers });

const tokenOf = (message: { link: string | undefined }) =>
  new URL(message.link!).searchParams.get('token')!;

const changePassword = (who: SignedIn, newPassword: string) =>
  as(t.app, who, {
    method: 'POST',
    url: '/api/password/change',
    payload: { currentPassword: PASSWORD, newPassword },
  });

const statuses = (answers: { statusCode: number }[]) =>
  answers.reduce<Record<number, number>>((seen, { statusCode }) => {
    seen[statusCode] = (seen[statusCode] ?? 0) + 1;
    return seen;
  }, {});

describe('guesses sent all at once', () => {
  it('checks at most 10 of 50 wrong passwords from one address', async () => {
    const { user } = await newCustomer();
    const address = freshAddress();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => signIn(user.email, 'wrong password', address)),
    );
    expect(checked.password).toBe(10);
    expect(statuses(answers)).toEqual({ 401: 10, 429: 40 });
    // The address stays refused, the right password included, and it was not checked.
    expect((await signIn(user.email, PASSWORD, address)).statusCode).toBe(429);
    expect(checked.password).toBe(10);
  });

  it('checks at most 20 of 50 wrong passwords from 50 addresses against one account', async () => {
    const { user } = await newCustomer();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => signIn(user.email, 'wrong password', freshAddress())),
    );
    expect(checked.password).toBe(20);
    expect(statuses(answers)).toEqual({ 401: 20, 429: 30 });
  });

  it('checks at most 5 of 49 wrong codes and the right one, and refuses the right one after', async () => {
    const email = uniqueEmail('staff');
    const staff = await signInStaff(t, email, PASSWORD);
    expect(staff.user.isAdmin).toBe(true);
    const secret = secretOf(email)!;
    const first = await signIn(email, PASSWORD, freshAddress(), {}, '/api/admin/signin');
    expect(first.json()).toEqual({ twoFactorRequired: true });
    const pending = sessionCookie(first)!;
    checked.code = 0;
    const verify = (code: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/signin/verify',
        payload: { code },
        headers: { cookie: pending },
      });
    // A code the helper's sign-in did not use, so not a replay.
    const right = await freshCode(secret, t.now);
    const wrong = Array.from({ length: 49 }, (_, i) =>
      String((Number(right) + i + 1) % 1e6).padStart(6, '0'),
    );
    const answers = await Promise.all([...wrong, right].map(verify));
    expect(checked.code).toBe(5);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(45);
    const heard = answers.filter((a) => a.statusCode !== 429);
    expect(heard.every((a) => a.statusCode === 400 || a.statusCode === 200)).toBe(true);
    if (answers.at(-1)!.statusCode !== 200) {
      // Not among the five heard: past the limit the right code is refused, unchecked.
      expect(answers.at(-1)!.statusCode).toBe(429);
      t.advance(30_000);
      const again = await verify(await freshCode(secret, t.now));
      expect(again.statusCode).toBe(429);
      expect(checked.code).toBe(5);
    }
  });

  it('checks at most 10 of 50 wrong current passwords', async () => {
    const who = await newCustomer();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        as(t.app, who, {
          method: 'POST',
          url: '/api/password/change',
          payload: { currentPassword: 'wrong password', newPassword: 'a new password 2' },
        }),
      ),
    );
    expect(checked.password).toBe(10);
    expect(statuses(answers)).toEqual({ 400: 10, 429: 40 });
    expect(answers.find((a) => a.statusCode === 429)!.json().message).toMatch(
      /^Too many wrong current passwords\. Try again in \d+ minutes?\.$/,
    );
  });

  it('gives a right password its count back: the owner signing in often is never limited', async () => {
    const { user } = await newCustomer();
    const address = freshAddress();
    for (let i = 0; i < 12; i++) {
      expect((await signIn(user.email, PASSWORD, address)).statusCode).toBe(200);
    }
    expect(checked.password).toBe(12);
  });
});

describe('a locked account', () => {
  it('checks no password from any address, and mails its owner a link that signs in once', async () => {
    const { user } = await newCustomer();
    const guesses = await Promise.all(
      Array.from({ length: 30 }, () => signIn(user.email, 'wrong password', freshAddress())),
    );
    expect(statuses(guesses)).toEqual({ 401: 20, 429: 10 });
    checked.password = 0;

    // The owner's right password, from 30 addresses that never failed: all refused, none checked.
    const owner = await Promise.all(
      Array.from({ length: 30 }, () => signIn(user.email, PASSWORD, freshAddress())),
    );
    expect(statuses(owner)).toEqual({ 429: 30 });
    expect(checked.password).toBe(0);
    const refusal = owner[0]!.json().message;
    expect(refusal).toMatch(
      /^Too many failed sign-in attempts for this account\. If it is yours, we have emailed you a link to sign in\. Try again in \d+ minutes?\.$/,
    );

    const message = await mail.waitFor(user.email, /Sign in to Cardbridge with this link/);
    // One email for 40 refusals: at most one a quarter of an hour.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mail.to(user.email).filter((m) => /this link/.test(m.subject))).toHaveLength(1);
    expect(message.link).toMatch(new RegExp(`^${TEST_APP_URL}/sign-in-link\\?token=[\\w-]{43}$`));
    const token = tokenOf(message);
    const used = await t.app.inject({
      method: 'POST',
      url: '/api/signin/link',
      payload: { token },
    });
    expect(used.statusCode).toBe(200);
    expect(used.json().email).toBe(user.email);
    const me = await as(
      t.app,
      { cookie: sessionCookie(used)!, user: used.json() },
      {
        method: 'GET',
        url: '/api/auth/user',
      },
    );
    expect(me.json().id).toBe(user.id);
    // Once only.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/signin/link',
      payload: { token },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.token).toMatch(/invalid, used or expired/);

    // The lock ends with its hour.
    t.advance(60 * 60 * 1000);
    expect((await signIn(user.email, PASSWORD, freshAddress())).statusCode).toBe(200);
  });

  it('answers an unknown email as a known one, and mails nobody', async () => {
    const unknown = uniqueEmail('nobody');
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => signIn(unknown, 'wrong password', freshAddress())),
    );
    expect(statuses(answers)).toEqual({ 401: 20, 429: 5 });
    expect(answers.find((a) => a.statusCode === 429)!.json().message).toMatch(
      /we have emailed you a link to sign in/,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mail.to(unknown)).toHaveLength(0);
  });

  it('sends staff the same link, which leads to the second factor, and logs the lock', async () => {
    const email = uniqueEmail('staff');
    await upsertAdmin(t.database.db, { email, password: PASSWORD, firstName: 'Sam' }, 4);
    await Promise.all(
      Array.from({ length: 21 }, () =>
        signIn(email, 'wrong password', freshAddress(), {}, '/api/admin/signin'),
      ),
    );
    const message = await mail.waitFor(email, /Sign in to Cardbridge with this link/);
    const token = tokenOf(message);
    const used = await t.app.inject({
      method: 'POST',
      url: '/api/signin/link',
      payload: { token },
    });
    expect(used.statusCode).toBe(200);
    expect(used.json().twoFactorRequired).toBe(true);
    // Only a session waiting for the code: no staff route answers it yet.
    const queue = await t.app.inject({
      method: 'GET',
      url: '/api/admin/transactions',
      headers: { cookie: sessionCookie(used)! },
    });
    expect(queue.statusCode).toBe(401);
  });
});

describe('step-up guesses (decision 101)', () => {
  const reauth = (who: SignedIn, payload: { password: string } | { code: string }) =>
    as(t.app, who, { method: 'POST', url: '/api/reauth', payload });

  it('count with the sign-in failures of the account: 20 in all lock it and mail its owner the link', async () => {
    const who = await newCustomer();
    // Sent at once, wrong sign-ins (each from a new address) and wrong step-ups mixed.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0
          ? signIn(who.user.email, 'wrong password', freshAddress())
          : reauth(who, { password: 'wrong password' }),
      ),
    );
    expect(checked.password).toBe(20);
    const seen = statuses(answers);
    expect((seen[401] ?? 0) + (seen[400] ?? 0)).toBe(20);
    expect(seen[429]).toBe(10);

    // Locked: the owner's right password is refused unchecked, at step-up and at sign-in alike.
    checked.password = 0;
    const again = await reauth(who, { password: PASSWORD });
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(/^Too many failed sign-in attempts for this account\./);
    expect((await signIn(who.user.email, PASSWORD, freshAddress())).statusCode).toBe(429);
    expect(checked.password).toBe(0);
    await mail.waitFor(who.user.email, /Sign in to Cardbridge with this link/);
  });

  it('gives a right password its count back', async () => {
    const who = await newCustomer();
    for (let i = 0; i < 25; i++) {
      expect((await reauth(who, { password: PASSWORD })).statusCode).toBe(200);
    }
    expect((await signIn(who.user.email, PASSWORD, freshAddress())).statusCode).toBe(200);
  });

  it('counts wrong codes with the sign-in codes of the account: 5 in all', async () => {
    const who = await newCustomer();
    const setup = await as(t.app, who, { method: 'POST', url: '/api/two-factor/setup' });
    const { secret } = setup.json();
    const on = await as(t.app, who, {
      method: 'POST',
      url: '/api/two-factor/enable',
      payload: { code: await freshCode(secret, t.now) },
    });
    expect(on.statusCode).toBe(200);
    const waiting = await signIn(who.user.email, PASSWORD, freshAddress());
    expect(waiting.json()).toEqual({ twoFactorRequired: true });
    const right = await freshCode(secret, t.now);
    const wrong = Array.from({ length: 20 }, (_, i) =>
      String((Number(right) + i + 1) % 1e6).padStart(6, '0'),
    );
    checked.code = 0;
    const answers = await Promise.all(
      wrong.map((code, i) =>
        i % 2 === 0
          ? t.app.inject({
              method: 'POST',
              url: '/api/admin/signin/verify',
              payload: { code },
              headers: { cookie: sessionCookie(waiting)! },
            })
          : reauth(who, { code }),
      ),
    );
    expect(checked.code).toBe(5);
    expect(statuses(answers)).toEqual({ 400: 5, 429: 15 });
  });
});

describe('addresses as networks', () => {
  it('counts 40 addresses of one IPv6 /64 behind a trusted proxy as one', async () => {
    await withTestApp(
      async (behindProxy) => {
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            behindProxy.app.inject({
              method: 'POST',
              url: '/api/signin',
              payload: { email: uniqueEmail('v6'), password: 'wrong password' },
              remoteAddress: '10.0.0.2',
              headers: { 'x-forwarded-for': `2001:db8:5:7:${(i + 1).toString(16)}::${i + 9}` },
            }),
          ),
        );
        expect(checked.password).toBe(10);
        expect(statuses(answers)).toEqual({ 401: 10, 429: 30 });
        // Another /64 is another network.
        const other = await behindProxy.app.inject({
          method: 'POST',
          url: '/api/signin',
          payload: { email: uniqueEmail('v6'), password: 'wrong password' },
          remoteAddress: '10.0.0.2',
          headers: { 'x-forwarded-for': '2001:db8:5:8::1' },
        });
        expect(other.statusCode).toBe(401);
      },
      { limits: DEFAULT_LIMITS, trustProxy: 1 },
    );
  });

  it('counts sign-ups from rotating IPv6 addresses of one /64 together', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/signup',
          payload: { email: uniqueEmail(), password: PASSWORD, firstName: 'R', lastName: 'Rotate' },
          remoteAddress: `2001:db8:77:1:${i.toString(16)}:aa::${i + 1}`,
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 200: 10, 429: 20 });
  });
});

describe('links and sessions die with the password', () => {
  const forgot = (email: string) =>
    t.app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });

  it('refuses a reset link asked for before the password was changed', async () => {
    const who = await newCustomer();
    expect((await forgot(who.user.email)).statusCode).toBe(200);
    const message = await mail.waitFor(who.user.email, /Reset your Cardbridge password/);
    const token = tokenOf(message);
    expect((await changePassword(who, 'a brand new password 3')).statusCode).toBe(200);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/password/reset',
      payload: { token, password: 'the attackers password 4' },
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().errors).toEqual({
      token: 'This link is invalid or has expired. Ask for a new one from the sign-in page.',
    });
  });

  it('ends a sign-in link mailed before the password was changed', async () => {
    const who = await newCustomer();
    await Promise.all(
      Array.from({ length: 21 }, () => signIn(who.user.email, 'wrong password', freshAddress())),
    );
    const message = await mail.waitFor(who.user.email, /Sign in to Cardbridge with this link/);
    const token = tokenOf(message);
    expect((await changePassword(who, 'a brand new password 6')).statusCode).toBe(200);
    const used = await t.app.inject({
      method: 'POST',
      url: '/api/signin/link',
      payload: { token },
    });
    expect(used.statusCode).toBe(400);
    expect(sessionCookie(used)).toBeUndefined();
  });

  it('ends a staff sign-in waiting for its code when the password is reset', async () => {
    const email = uniqueEmail('staff');
    await signInStaff(t, email, PASSWORD);
    const waiting = await signIn(email, PASSWORD, freshAddress(), {}, '/api/admin/signin');
    expect(waiting.json()).toEqual({ twoFactorRequired: true });
    const sid = sidOf(sessionCookie(waiting)!);
    const stored = () =>
      t.database.db.select({ sid: sessions.sid }).from(sessions).where(eq(sessions.sid, sid));
    expect(await stored()).toHaveLength(1);
    expect((await forgot(email)).statusCode).toBe(200);
    const message = await mail.waitFor(email, /Reset your Cardbridge password/);
    const token = tokenOf(message);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/password/reset',
      payload: { token, password: 'a brand new password 5' },
    });
    expect(reset.statusCode).toBe(200);
    t.advance(30_000);
    const verify = await t.app.inject({
      method: 'POST',
      url: '/api/admin/signin/verify',
      payload: { code: await freshCode(secretOf(email)!, t.now) },
      headers: { cookie: sessionCookie(waiting)! },
    });
    expect(verify.statusCode).toBe(401);
    expect(await stored()).toHaveLength(0);
  });
});
