import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ensureFirstStaffAccount } from '../../src/server/bootstrap';
import { upsertAdmin } from '../../src/server/common/accounts';
import { users } from '../../src/server/db/schema';
import { codeAt, resetTwoFactor } from '../../src/server/modules/auth/two-factor';
import { registeredRoutes } from '../fuzz/catalogue';
import {
  as,
  createTestApp,
  freshCode,
  sessionCookie,
  setUpTestApp,
  signInStaff,
  signUp,
  uniqueEmail,
} from './helpers';

const t = setUpTestApp();

const PASSWORD = 'staff password 1';

async function newStaff() {
  const email = uniqueEmail('staff');
  const { admin } = await upsertAdmin(t.database.db, { email, password: PASSWORD }, 4);
  return { email, id: admin.id };
}

const passwordStep = (email: string, password = PASSWORD) =>
  t.app.inject({ method: 'POST', url: '/api/admin/signin', payload: { email, password } });

const verify = (cookie: string | undefined, code: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/signin/verify',
    payload: { code },
    headers: cookie ? { cookie } : {},
  });

/** A code for the step after `steps` from now (the server accepts one step either side). */
const codeIn = (secret: string, steps: number) => codeAt(secret, t.now() + steps * 30_000);

describe('staff sign-in with a second factor', () => {
  it('gives a password alone no access to any /api/admin route', async () => {
    const staff = await newStaff();
    const first = await passwordStep(staff.email);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      twoFactorRequired: true,
      otpauthUrl: expect.stringMatching(/^otpauth:\/\/totp\/Cardbridge:.+\?.*secret=[A-Z2-7]+/),
      secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
    });
    const cookie = sessionCookie(first)!;
    expect(cookie).toMatch(/^cb\.sid=[^;]+$/);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
    expect(me.statusCode).toBe(401);
    const adminGets = registeredRoutes(t.app).filter(
      (r) => r.method === 'GET' && r.path.startsWith('/api/admin/'),
    );
    expect(adminGets.length).toBeGreaterThanOrEqual(6);
    for (const route of adminGets) {
      const url = route.path.replace(/:\w+/g, '00000000-0000-0000-0000-000000000000');
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(response.statusCode, url).toBe(401);
    }
    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/transactions/00000000-0000-0000-0000-000000000000',
      payload: { status: 'completed' },
      headers: { cookie },
    });
    expect(patch.statusCode).toBe(401);
  });

  it('enrols with the first valid code, answers 10 recovery codes once, and then signs in', async () => {
    const staff = await newStaff();
    const first = await passwordStep(staff.email);
    const { secret } = first.json();
    const done = await verify(sessionCookie(first), codeIn(secret, 0));
    expect(done.statusCode).toBe(200);
    const body = done.json();
    expect(body).toMatchObject({ email: staff.email, isAdmin: true });
    expect(body.recoveryCodes).toHaveLength(10);
    expect(new Set(body.recoveryCodes).size).toBe(10);
    const cookie = sessionCookie(done)!;
    const stats = await t.app.inject({
      method: 'GET',
      url: '/api/admin/stats',
      headers: { cookie },
    });
    expect(stats.statusCode).toBe(200);

    // Enrolled: the next sign-in asks for a code and shows no secret.
    const again = await passwordStep(staff.email);
    expect(again.json()).toEqual({ twoFactorRequired: true });
    const second = await verify(sessionCookie(again), codeIn(secret, 1));
    expect(second.statusCode).toBe(200);
    expect(second.json().recoveryCodes).toBeUndefined();
  });

  it('refuses a replayed code, a wrong code, and a recovery code used before', async () => {
    const staff = await newStaff();
    const first = await passwordStep(staff.email);
    const { secret } = first.json();
    const code = codeIn(secret, 0);
    const enrolled = await verify(sessionCookie(first), code);
    const { recoveryCodes } = enrolled.json();

    // The same code again, within its 30 s: refused (and so is the step before it).
    const replay = await passwordStep(staff.email);
    const replayed = await verify(sessionCookie(replay), code);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().errors.code).toMatch(/just used/);
    expect((await verify(sessionCookie(replay), codeIn(secret, -1))).statusCode).toBe(400);

    const wrong = await verify(
      sessionCookie(replay),
      String((Number(codeIn(secret, 1)) + 1) % 1_000_000).padStart(6, '0'),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.code).toMatch(/not right/);

    // A recovery code signs in once, in any case and with or without its dash.
    const recovery = recoveryCodes[0] as string;
    const withRecovery = await verify(
      sessionCookie(replay),
      recovery.toUpperCase().replace('-', ' '),
    );
    expect(withRecovery.statusCode).toBe(200);
    const later = await passwordStep(staff.email);
    const reused = await verify(sessionCookie(later), recovery);
    expect(reused.statusCode).toBe(400);
    expect((await verify(sessionCookie(later), recoveryCodes[1])).statusCode).toBe(200);
  });

  it('limits wrong codes: the 6th in 15 minutes is refused with 429, even a right one', async () => {
    const staff = await newStaff();
    const first = await passwordStep(staff.email);
    const { secret } = first.json();
    await verify(sessionCookie(first), codeIn(secret, 0));
    const pending = sessionCookie(await passwordStep(staff.email));
    for (let i = 0; i < 5; i++) {
      expect((await verify(pending, '000000')).statusCode).toBe(400);
    }
    const refused = await verify(pending, codeIn(secret, 1));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/Too many wrong codes/);
  });

  it('needs the password step first, on the same browser', async () => {
    expect((await verify(undefined, '123456')).statusCode).toBe(401);
    const customer = await signUp(t.app);
    const asCustomer = await verify(customer.cookie, '123456');
    expect(asCustomer.statusCode).toBe(401);
  });

  it('enrols the first-start staff account at its first sign-in', async () => {
    const fresh = await createTestApp();
    try {
      // The embedded database makes it at the first start; PostgreSQL's operator runs
      // admin:create (decision 005), which makes the same kind of account.
      let created = await ensureFirstStaffAccount(fresh.database, 4);
      if (fresh.database.kind === 'postgres') {
        expect(created).toBeNull();
        created = { email: 'admin@cardbridge.local', password: 'an operator passphrase 1' };
        await upsertAdmin(fresh.database.db, created, 4);
      }
      expect(created).not.toBeNull();
      const first = await fresh.app.inject({
        method: 'POST',
        url: '/api/admin/signin',
        payload: created!,
      });
      expect(first.json().otpauthUrl).toContain('admin%40cardbridge.local');
      const done = await fresh.app.inject({
        method: 'POST',
        url: '/api/admin/signin/verify',
        payload: { code: await freshCode(first.json().secret, fresh.now) },
        headers: { cookie: sessionCookie(first)! },
      });
      expect(done.statusCode).toBe(200);
      expect(done.json().email).toBe('admin@cardbridge.local');
    } finally {
      await fresh.close();
    }
  });

  it('enrols again after an operator resets the second factor', async () => {
    const staff = await newStaff();
    const first = await passwordStep(staff.email);
    await verify(sessionCookie(first), codeIn(first.json().secret, 0));
    await resetTwoFactor(t.database.db, { kind: 'admin', id: staff.id });
    const after = await passwordStep(staff.email);
    expect(after.json().secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(after.json().secret).not.toBe(first.json().secret);
  });

  it('asks a customer row flagged is_admin for a second factor too, and a customer for none', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email, password: 'customer secret 1' });
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/signin',
      payload: { email, password: 'customer secret 1' },
    });
    expect(plain.json().email).toBe(email);
    await t.database.db.update(users).set({ isAdmin: true }).where(eq(users.email, email));
    const flagged = await t.app.inject({
      method: 'POST',
      url: '/api/signin',
      payload: { email, password: 'customer secret 1' },
    });
    expect(flagged.json()).toMatchObject({ twoFactorRequired: true, secret: expect.any(String) });
    const cookie = sessionCookie(flagged)!;
    const stats = await as(
      t.app,
      { cookie, user: { id: '', email, isAdmin: true } },
      {
        method: 'GET',
        url: '/api/admin/stats',
      },
    );
    expect(stats.statusCode).toBe(401);
    const done = await verify(cookie, codeIn(flagged.json().secret, 0));
    expect(done.json()).toMatchObject({ email, isAdmin: true });
  });

  it('the test helper signs staff in through both steps', async () => {
    const staff = await signInStaff(t);
    const stats = await as(t.app, staff, { method: 'GET', url: '/api/admin/stats' });
    expect(stats.statusCode).toBe(200);
  });
});
