import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, users } from '../../src/server/db/schema';
import { withTestApp } from './builders';
import { sessionCookie, setUpTestApp, sidOf, signInStaff, signUp, uniqueEmail } from './helpers';

const t = setUpTestApp();

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

const sessionCount = async () => {
  const [row] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(sessions);
  return row!.n;
};

const me = (cookie?: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/user', headers: cookie ? { cookie } : {} });

describe('POST /api/signup', () => {
  it('creates the account, signs it in and answers the current user', async () => {
    const email = uniqueEmail();
    const response = await post('/api/signup', {
      email,
      password: 'longenough',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      profileImageUrl: null,
      isAdmin: false,
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body).not.toHaveProperty('password');

    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^cb\.sid=/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).not.toContain('Secure');

    const current = await me(sessionCookie(response));
    expect(current.statusCode).toBe(200);
    expect(current.json()).toEqual(body);
  });

  it('stores a bcrypt hash at the configured cost (12 by default)', async () => {
    await withTestApp(
      async (strict) => {
        const email = uniqueEmail();
        await signUp(strict.app, { email, password: 'longenough' });
        const [row] = await strict.database.db.select().from(users).where(eq(users.email, email));
        // bcrypt at cost 12 over the pre-hashed password (decision 036).
        expect(row!.password).toMatch(/^cb1\$\$2b\$12\$/);
        expect(row!.password).not.toContain('longenough');
      },
      { bcryptCost: 12 },
    );
  });

  it('answers each validation message of the spec with 400', async () => {
    const response = await post('/api/signup', {
      email: 'not-an-email',
      password: 'short',
      firstName: '',
      lastName: '   ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Invalid email address',
      errors: {
        email: 'Invalid email address',
        password: 'Password must be at least 8 characters',
        firstName: 'First name is required',
        lastName: 'Last name is required',
      },
    });
  });

  it('refuses missing fields and a body that is not an object', async () => {
    const missing = await post('/api/signup', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({
      email: 'Invalid email address',
      password: 'Password must be at least 8 characters',
      firstName: 'First name is required',
      lastName: 'Last name is required',
    });
    const garbage = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().message).toEqual(expect.any(String));
  });

  it('refuses a password longer than 128 characters', async () => {
    const response = await post('/api/signup', {
      email: uniqueEmail(),
      password: 'a'.repeat(129),
      firstName: 'A',
      lastName: 'B',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.password).toBe('Password must be at most 128 characters');
  });

  it('answers 409 for an email already taken, whatever its case', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    const response = await post('/api/signup', {
      email: email.toUpperCase(),
      password: 'longenough',
      firstName: 'A',
      lastName: 'B',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('An account with this email already exists');
  });
});

describe('POST /api/signin', () => {
  it('signs in with the email in any case and renews the session id', async () => {
    const email = uniqueEmail();
    const first = await signUp(t.app, { email, password: 'right password' });
    const response = await post(
      '/api/signin',
      { email: ` ${email.toUpperCase()} `, password: 'right password' },
      { cookie: first.cookie },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().email).toBe(email);
    const renewed = sessionCookie(response)!;
    expect(renewed).toMatch(/^cb\.sid=[^;]+$/);
    expect(renewed).not.toBe(first.cookie);
    expect((await me(renewed)).statusCode).toBe(200);
    // The session id the client had before signing in is dead on the server.
    expect((await me(first.cookie)).statusCode).toBe(401);
  });

  it('answers 401 with one message for a wrong password and for an unknown email', async () => {
    const { user } = await signUp(t.app, { password: 'right password' });
    for (const payload of [
      { email: user.email, password: 'wrong password' },
      { email: uniqueEmail('nobody'), password: 'right password' },
    ]) {
      const response = await post('/api/signin', payload);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Invalid email or password' });
      expect(sessionCookie(response)).toBeUndefined();
    }
  });

  it('answers the spec messages for invalid input', async () => {
    const response = await post('/api/signin', { email: 'x', password: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      email: 'Invalid email address',
      password: 'Password is required',
    });
  });
});

describe('staff and customer sign-in are separate', () => {
  it('a customer cannot sign in at /api/admin/signin, nor staff at /api/signin', async () => {
    const customer = await signUp(t.app, { password: 'customer pass' });
    const asStaff = await post('/api/admin/signin', {
      email: customer.user.email,
      password: 'customer pass',
    });
    expect(asStaff.statusCode).toBe(401);
    expect(asStaff.json().message).toBe('Invalid email or password');

    const staffEmail = uniqueEmail('staff');
    const staff = await signInStaff(t, staffEmail, 'staff pass 123');
    expect(staff.user).toMatchObject({ email: staffEmail, isAdmin: true, firstName: 'Sam' });
    const asCustomer = await post('/api/signin', { email: staffEmail, password: 'staff pass 123' });
    expect(asCustomer.statusCode).toBe(401);

    const current = await me(staff.cookie);
    expect(current.json()).toMatchObject({ email: staffEmail, isAdmin: true });
  });

  it('validates the admin sign-in body with the spec messages', async () => {
    const response = await post('/api/admin/signin', { email: 'nope', password: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      email: 'Invalid email address',
      password: 'Password is required',
    });
  });

  it('treats a customer row flagged isAdmin as staff, once the session renews', async () => {
    const customer = await signUp(t.app);
    await t.database.db.update(users).set({ isAdmin: true }).where(eq(users.id, customer.user.id));
    // A change made outside the app reaches a cached session when it renews (15 minutes).
    t.advance(15 * 60 * 1000 + 1);
    expect((await me(customer.cookie)).json().isAdmin).toBe(true);
  });
});

describe('sessions', () => {
  it('writes no session row for anonymous requests', async () => {
    const before = await sessionCount();
    const anonymous = await me();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Unauthorized' });
    expect(anonymous.headers['set-cookie']).toBeUndefined();
    await t.app.inject({ method: 'GET', url: '/api/login' });
    await post('/api/signin', { email: uniqueEmail('nobody'), password: 'x' });
    expect(await sessionCount()).toBe(before);
  });

  it('says who is signed in at /api/auth/session, nobody with a 200 and no session row', async () => {
    const before = await sessionCount();
    const nobody = await t.app.inject({ method: 'GET', url: '/api/auth/session' });
    expect(nobody.statusCode).toBe(200);
    expect(nobody.json()).toEqual({ user: null });
    expect(nobody.headers['cache-control']).toBe('no-store');
    expect(nobody.headers['set-cookie']).toBeUndefined();
    expect(await sessionCount()).toBe(before);

    const { cookie } = await signUp(t.app);
    const signedIn = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({ user: (await me(cookie)).json() });
    // A cookie that names no session is nobody, as for /api/auth/user's 401.
    await post('/api/logout', {}, { cookie });
    const ended = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie },
    });
    expect(ended.json()).toEqual({ user: null });
  });

  it('does not rewrite the session on every poll, and renews it after 15 minutes', async () => {
    const { cookie } = await signUp(t.app);
    const row = async () =>
      (
        await t.database.db
          .select()
          .from(sessions)
          .where(eq(sessions.sid, sidOf(cookie)))
      )[0]!;
    const before = await row();
    for (let i = 0; i < 3; i++) {
      const poll = await me(cookie);
      expect(poll.statusCode).toBe(200);
      expect(poll.headers['set-cookie']).toBeUndefined();
    }
    expect((await row()).expire.getTime()).toBe(before.expire.getTime());
    t.advance(15 * 60 * 1000 + 1);
    expect((await me(cookie)).statusCode).toBe(200);
    // Renewed with the next batch of renewals (one statement a second for every session due).
    await t.app.sessionTouches.flush();
    expect((await row()).expire.getTime()).toBeGreaterThan(
      before.expire.getTime() + 15 * 60 * 1000,
    );
  });

  it('stores only a hash of the token, never the token itself', async () => {
    const { cookie } = await signUp(t.app);
    const token = decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!;
    const rows = await t.database.db.select({ sid: sessions.sid }).from(sessions);
    expect(rows.map((r) => r.sid)).toContain(sidOf(cookie));
    expect(rows.map((r) => r.sid)).not.toContain(token);
  });

  it('ends a customer session after 24 hours idle', async () => {
    const { cookie } = await signUp(t.app);
    t.advance(23 * 60 * 60 * 1000);
    expect((await me(cookie)).statusCode).toBe(200);
    t.advance(24 * 60 * 60 * 1000 + 1000);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('ends a customer session 30 days after sign-in however active it is', async () => {
    const { cookie } = await signUp(t.app);
    for (let day = 1; day < 30; day++) {
      t.advance(24 * 60 * 60 * 1000 - 60_000);
      expect((await me(cookie)).statusCode, `day ${day}`).toBe(200);
    }
    t.advance(24 * 60 * 60 * 1000);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('ends a staff session after 30 minutes idle, and 12 hours after sign-in', async () => {
    const idle = await signInStaff(t);
    t.advance(29 * 60 * 1000);
    expect((await me(idle.cookie)).statusCode).toBe(200);
    t.advance(31 * 60 * 1000);
    expect((await me(idle.cookie)).statusCode).toBe(401);

    const busy = await signInStaff(t);
    for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
      t.advance(20 * 60 * 1000);
      expect((await me(busy.cookie)).statusCode, `${minutes} minutes`).toBe(200);
    }
    t.advance(20 * 60 * 1000);
    expect((await me(busy.cookie)).statusCode).toBe(401);
  });

  it('refuses a cookie whose signature was altered, or that another secret signed', async () => {
    const { cookie } = await signUp(t.app);
    expect((await me(cookie)).statusCode).toBe(200);
    const [name, value] = cookie.split('=') as [string, string];
    const signed = decodeURIComponent(value);
    const dot = signed.lastIndexOf('.');
    const token = signed.slice(0, dot);
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}${signed.slice(dot)}`;
    expect((await me(`${name}=${encodeURIComponent(flipped)}`)).statusCode).toBe(401);
    expect((await me(`${name}=${encodeURIComponent(token)}`)).statusCode).toBe(401);
    const other = createHmac('sha256', 'another secret of thirty-two characters')
      .update(token)
      .digest('base64')
      .replace(/=+$/, '');
    expect((await me(`${name}=${encodeURIComponent(`${token}.${other}`)}`)).statusCode).toBe(401);
  });

  it('POST /api/logout deletes the session row and the old cookie stops working', async () => {
    const { cookie } = await signUp(t.app);
    const before = await sessionCount();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect(String(response.headers['set-cookie'])).toMatch(/cb\.sid=;/);
    expect(await sessionCount()).toBe(before - 1);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('GET /api/logout signs out and redirects to /', async () => {
    const { cookie } = await signUp(t.app);
    const response = await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('GET /api/login redirects to the sign-in dialog', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/login' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/?auth=signin');
  });
});

describe('cross-origin requests and headers', () => {
  it('refuses state-changing requests from another origin with 403', async () => {
    const { user, cookie } = await signUp(t.app, { password: 'right password' });
    const payload = { email: user.email, password: 'right password' };
    const evilOrigin = await post('/api/signin', payload, { origin: 'https://evil.example' });
    expect(evilOrigin.statusCode).toBe(403);
    expect(evilOrigin.json()).toEqual({ message: 'Cross-origin request refused' });
    const crossSite = await post('/api/logout', {}, { cookie, 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect((await me(cookie)).statusCode).toBe(200);

    const sameOrigin = await post('/api/signin', payload, {
      origin: 'http://localhost:80',
      host: 'localhost:80',
      'sec-fetch-site': 'same-origin',
    });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it('sends the security headers on every response', async () => {
    for (const url of ['/api/auth/user', '/api/nowhere']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['content-security-policy']).not.toContain(
        "script-src 'self' 'unsafe-inline'",
      );
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Not found: GET /api/nowhere');
  });
});
