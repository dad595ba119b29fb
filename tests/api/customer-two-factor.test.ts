import { describe, expect, it } from 'vitest';
import { codeAt } from '../../src/server/modules/auth/two-factor';
import { as, sessionCookie, setUpTestApp, signUp, uniqueEmail } from './helpers';

const t = setUpTestApp();
const PASSWORD = 'correct horse battery';
const STEP_MS = 30_000;

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
    const password = await t.app.inject({
      method: 'POST',
      url: '/api/signin',
      payload: { email, password: PASSWORD },
    });
    expect(password.json()).toEqual({ twoFactorRequired: true });
    const pending = sessionCookie(password)!;
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: pending } }))
        .statusCode,
    ).toBe(401);
    const code = codeAt(secret, t.now());
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/admin/signin/verify',
      payload: { code },
      headers: { cookie: pending },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ email, isAdmin: false });

    // The same code again is refused (replay), on a new sign-in.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/signin',
      payload: { email, password: PASSWORD },
    });
    const replay = await t.app.inject({
      method: 'POST',
      url: '/api/admin/signin/verify',
      payload: { code },
      headers: { cookie: sessionCookie(again)! },
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toMatch(/just used/);
    const recovered = await t.app.inject({
      method: 'POST',
      url: '/api/admin/signin/verify',
      payload: { code: recoveryCodes[0] },
      headers: { cookie: sessionCookie(again)! },
    });
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
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/signin',
      payload: { email, password: PASSWORD },
    });
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
