import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema';
import { codeAt } from '../../src/server/modules/auth/two-factor';
import {
  as,
  freshCode,
  type SignedIn,
  sessionCookie,
  setUpTestApp,
  signUp,
  uniqueEmail,
} from './helpers';

const t = setUpTestApp();
const PASSWORD = 'correct horse battery';
const STEP_MS = 30_000;

const signIn = (email: string) =>
  t.app.inject({ method: 'POST', url: '/api/signin', payload: { email, password: PASSWORD } });
const verify = (cookie: string, code: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/signin/verify',
    payload: { code },
    headers: { cookie },
  });

describe('customer two-factor', () => {
  it('turns on with a first code, then asks for a code at sign-in, refuses a replay, takes a recovery code, and turns off', async () => {
    const email = uniqueEmail();
    const who = await signUp(t.app, { email, password: PASSWORD });
    expect((await as(t.app, who, { method: 'GET', url: '/api/two-factor' })).json()).toEqual({
      enabled: false,
    });
    const setup = await as(t.app, who, { method: 'POST', url: '/api/two-factor/setup' });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret, otpauthUrl } = setup.json();
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);

    const wrong = await as(t.app, who, {
      method: 'POST',
      url: '/api/two-factor/enable',
      payload: { code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    const enabled = await as(t.app, who, {
      method: 'POST',
      url: '/api/two-factor/enable',
      payload: { code: codeAt(secret, t.now()) },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const { recoveryCodes } = enabled.json();
    expect(recoveryCodes).toHaveLength(10);

    // Sign-in now needs a code after the password.
    t.advance(STEP_MS);
    const password = await signIn(email);
    expect(password.json()).toEqual({ twoFactorRequired: true });
    const pending = sessionCookie(password)!;
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: pending } }))
        .statusCode,
    ).toBe(401);
    const code = codeAt(secret, t.now());
    const verified = await verify(pending, code);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ email, isAdmin: false });

    // The same code again is refused (replay), on a new sign-in.
    const again = await signIn(email);
    const replay = await verify(sessionCookie(again)!, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toMatch(/just used/);
    const recovered = await verify(sessionCookie(again)!, recoveryCodes[0]);
    expect(recovered.statusCode).toBe(200);
    const signedIn = { cookie: sessionCookie(recovered)!, user: who.user };

    // With two-factor on, a code also refreshes the session for payment-method changes.
    t.advance(11 * 60 * 1000);
    const stale = await as(t.app, signedIn, {
      method: 'POST',
      url: '/api/payment-methods',
      payload: { type: 'paypal', accountName: 'Casey', identifier: 'c@example.com' },
    });
    expect(stale.json().code).toBe('reauth_required');
    const reauth = await as(t.app, signedIn, {
      method: 'POST',
      url: '/api/reauth',
      payload: { code: codeAt(secret, t.now()) },
    });
    expect(reauth.statusCode, reauth.body).toBe(200);

    const off = await as(t.app, signedIn, { method: 'POST', url: '/api/two-factor/disable' });
    expect(off.statusCode).toBe(200);
    const plain = await signIn(email);
    expect(plain.json()).toMatchObject({ email });
  });

  it('needs a fresh password to set up, and is for customers only', async () => {
    const who = await signUp(t.app);
    t.advance(11 * 60 * 1000);
    const stale = await as(t.app, who, { method: 'POST', url: '/api/two-factor/setup' });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().code).toBe('reauth_required');
    expect((await t.app.inject({ method: 'GET', url: '/api/two-factor' })).statusCode).toBe(401);
  });
});

describe('turning customer two-factor on and off', () => {
  const enabledFor = async (who: SignedIn) =>
    (await as(t.app, who, { method: 'GET', url: '/api/two-factor' })).json().enabled;
  const auditOf = (userId: string) =>
    t.database.db
      .select({ action: auditLog.action, actorEmail: auditLog.actorEmail })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'user'), eq(auditLog.entityId, userId)))
      .orderBy(auditLog.createdAt);
  const setUp = async (who: SignedIn) =>
    (await as(t.app, who, { method: 'POST', url: '/api/two-factor/setup' })).json().secret;

  it('is audited, and changes the account for its other devices at once', async () => {
    const email = uniqueEmail();
    const laptop = await signUp(t.app, { email, password: PASSWORD });
    const signedIn = await signIn(email);
    const phone = { cookie: sessionCookie(signedIn)!, user: laptop.user };
    expect(await enabledFor(phone)).toBe(false);
    const stamp = () => t.app.live.stamp(laptop.user.id, 'account');
    const before = stamp();

    const secret = await setUp(laptop);
    const on = await as(t.app, laptop, {
      method: 'POST',
      url: '/api/two-factor/enable',
      payload: { code: await freshCode(secret, t.now) },
    });
    expect(on.statusCode).toBe(200);
    expect(stamp()).toBeGreaterThan(before);
    expect(await enabledFor(phone)).toBe(true);

    const afterOn = stamp();
    const off = await as(t.app, laptop, { method: 'POST', url: '/api/two-factor/disable' });
    expect(off.statusCode).toBe(200);
    expect(stamp()).toBeGreaterThan(afterOn);
    expect(await enabledFor(phone)).toBe(false);
    expect(await auditOf(laptop.user.id)).toEqual([
      { action: 'two_factor_on', actorEmail: email },
      { action: 'two_factor_off', actorEmail: email },
    ]);
  });

  it('turns on once for two right codes sent at once, and the recovery codes answered work', async () => {
    const email = uniqueEmail();
    const who = await signUp(t.app, { email, password: PASSWORD });
    const secret = await setUp(who);
    const codes = [await freshCode(secret, t.now), await freshCode(secret, t.now)];
    const answers = await Promise.all(
      codes.map((code) =>
        as(t.app, who, { method: 'POST', url: '/api/two-factor/enable', payload: { code } }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const { recoveryCodes } = answers.find((a) => a.statusCode === 200)!.json();
    expect(await auditOf(who.user.id)).toEqual([{ action: 'two_factor_on', actorEmail: email }]);

    const password = await signIn(email);
    const recovered = await verify(sessionCookie(password)!, recoveryCodes[0]);
    expect(recovered.statusCode).toBe(200);
  });
});
