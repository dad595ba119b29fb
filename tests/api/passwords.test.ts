import bcrypt from 'bcrypt';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { upsertAdmin } from '../../src/server/common/accounts';
import { authTokens, sessions, users } from '../../src/server/db/schema';
import { upgradePasswordHash } from '../../src/server/modules/auth/commands';
import {
  as,
  type SignedIn,
  sessionCookie,
  setUpTestApp,
  signInStaff,
  signUp,
  uniqueEmail,
} from './helpers';
import { setUpMailServer, TEST_APP_URL } from './mail-server';

const mail = setUpMailServer();
const t = setUpTestApp(() => mail.appConfig());
const APP_URL = TEST_APP_URL;

const post = (url: string, payload: object, who?: SignedIn) =>
  as(t.app, who, { method: 'POST', url, payload });
const signIn = (email: string, password: string) => post('/api/signin', { email, password });
const tokenOf = (link: string | undefined) => new URL(link!).searchParams.get('token')!;

describe('forgot password, by email', () => {
  it('mails a single-use link that sets a new password and ends every session', async () => {
    const email = uniqueEmail();
    const phone = await signUp(t.app, { email, password: 'old password 123' });
    const laptop = sessionCookie(await signIn(email, 'old password 123'))!;

    const forgot = await post('/api/password/forgot', { email: email.toUpperCase() });
    expect(forgot.statusCode).toBe(200);
    const message = await mail.waitFor(email, /Reset your Cardbridge password/);
    expect(message.from).toContain('no-reply@cardbridge.test');
    expect(message.link).toMatch(new RegExp(`^${APP_URL}/reset-password\\?token=[\\w-]{43}$`));
    // Plain text and HTML, both with the link, and the footer with our contact.
    expect(message.html).toContain(message.link!.replace('&', '&amp;'));
    expect(message.text).toContain('support@cardbridge.app');
    expect(message.html).toContain('support@cardbridge.app');
    const token = tokenOf(message.link);
    // Only the token's hash is stored.
    const stored = await t.database.db.select().from(authTokens);
    expect(JSON.stringify(stored)).not.toContain(token);

    // The page asks on opening whether the link still works; asking does not use it up.
    for (let i = 0; i < 2; i++) {
      const check = await post('/api/password/reset/check', { token });
      expect(check.statusCode).toBe(200);
      expect(check.json()).toEqual({ valid: true });
    }
    const reset = await post('/api/password/reset', { token, password: 'brand new secret 42' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({
      message: 'Your password is changed. Sign in with your new password.',
      account: 'customer',
    });
    // Every session of the account is gone at once: the one that asked and the other device.
    for (const cookie of [phone.cookie, laptop]) {
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
      expect(me.statusCode).toBe(401);
    }
    expect((await signIn(email, 'old password 123')).statusCode).toBe(401);
    expect((await signIn(email, 'brand new secret 42')).statusCode).toBe(200);
    // The link works once.
    const again = await post('/api/password/reset', { token, password: 'another secret 43' });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.token).toMatch(/invalid or has expired/);
    // Opened again, the used link says so before any password is typed.
    const used = await post('/api/password/reset/check', { token });
    expect(used.statusCode).toBe(400);
    expect(used.json().errors.token).toMatch(/invalid or has expired/);
    expect((await post('/api/password/reset/check', { token: 'made-up' })).json()).toEqual(
      used.json(),
    );
    // And the owner is told by email that the password changed.
    await mail.waitFor(email, /password was changed/);
  });

  it('refuses a link after 30 minutes', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    await post('/api/password/forgot', { email });
    const token = tokenOf((await mail.waitFor(email, /Reset/)).link);
    t.advance(30 * 60 * 1000 + 1000);
    try {
      const late = await post('/api/password/reset', { token, password: 'brand new secret 42' });
      expect(late.statusCode).toBe(400);
      expect(late.json().errors.token).toMatch(/invalid or has expired/);
    } finally {
      t.advance(-(30 * 60 * 1000 + 1000));
    }
  });

  it('answers an unknown email exactly as a known one, and mails nobody', async () => {
    const known = uniqueEmail();
    await signUp(t.app, { email: known });
    const unknown = uniqueEmail('nobody');
    // The unknown address first: the known one's mail, worked out and queued after it, is the
    // sign that anything the unknown one could have caused has been sent.
    const b = await post('/api/password/forgot', { email: unknown });
    const a = await post('/api/password/forgot', { email: known });
    expect(b.statusCode).toBe(a.statusCode);
    expect(b.body).toBe(a.body);
    expect(Object.keys(b.headers).sort()).toEqual(Object.keys(a.headers).sort());
    await mail.waitFor(known, /Reset/);
    expect(mail.to(unknown)).toEqual([]);
  });

  it('sends at most 5 reset emails per account per hour, answering the same each time', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    for (let i = 0; i < 7; i++) {
      const response = await post('/api/password/forgot', { email });
      expect(response.statusCode).toBe(200);
    }
    // Another account's link, asked for after the seven: when it arrives, theirs are sent.
    const later = uniqueEmail('later');
    await signUp(t.app, { email: later });
    expect((await post('/api/password/forgot', { email: later })).statusCode).toBe(200);
    await mail.waitFor(later, /Reset/);
    await t.app.mail.deliverDue();
    expect(mail.to(email).filter((m) => /Reset/.test(m.subject))).toHaveLength(5);
  });

  it('only the newest link works', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    await post('/api/password/forgot', { email });
    const first = tokenOf((await mail.waitFor(email, /Reset/)).link);
    await post('/api/password/forgot', { email });
    await expect.poll(() => mail.to(email).filter((m) => /Reset/.test(m.subject)).length).toBe(2);
    const second = tokenOf(mail.to(email).filter((m) => /Reset/.test(m.subject))[1]!.link);
    expect(
      (await post('/api/password/reset', { token: first, password: 'brand new secret 42' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await post('/api/password/reset', { token: second, password: 'brand new secret 42' }))
        .statusCode,
    ).toBe(200);
  });

  it('resets a staff password too, from the same form', async () => {
    const email = uniqueEmail('staff');
    await upsertAdmin(t.database.db, { email, password: 'staff password 1' }, 4);
    await post('/api/password/forgot', { email });
    const message = await mail.waitFor(email, /Reset/);
    expect(message.text).toContain('staff account');
    const reset = await post('/api/password/reset', {
      token: tokenOf(message.link),
      password: 'new staff secret 9',
    });
    expect(reset.json().account).toBe('staff');
    const signin = await post('/api/admin/signin', { email, password: 'new staff secret 9' });
    expect(signin.json().twoFactorRequired).toBe(true);
  });
});

describe('changing the password', () => {
  it('needs the current password and ends the other sessions, keeping this one', async () => {
    const email = uniqueEmail();
    const here = await signUp(t.app, { email, password: 'first secret 123' });
    const elsewhere = sessionCookie(await signIn(email, 'first secret 123'))!;

    const wrong = await post(
      '/api/password/change',
      { currentPassword: 'not it at all', newPassword: 'second secret 456' },
      here,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ currentPassword: 'Current password is incorrect' });

    const changed = await post(
      '/api/password/change',
      { currentPassword: 'first secret 123', newPassword: 'second secret 456' },
      here,
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ success: true, endedSessions: 1 });
    const me = (cookie: string) =>
      t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
    expect((await me(here.cookie)).statusCode).toBe(200);
    expect((await me(elsewhere)).statusCode).toBe(401);
    expect((await signIn(email, 'second secret 456')).statusCode).toBe(200);
    await mail.waitFor(email, /password was changed/);
  });

  it('is refused to a signed-out caller, and after 10 wrong current passwords in an hour', async () => {
    expect(
      (
        await post('/api/password/change', {
          currentPassword: 'x',
          newPassword: 'second secret 456',
        })
      ).statusCode,
    ).toBe(401);
    const who = await signUp(t.app);
    for (let i = 0; i < 10; i++) {
      const r = await post(
        '/api/password/change',
        { currentPassword: `wrong ${i}`, newPassword: 'second secret 456' },
        who,
      );
      expect(r.statusCode).toBe(400);
    }
    const refused = await post(
      '/api/password/change',
      { currentPassword: 'correct horse battery', newPassword: 'second secret 456' },
      who,
    );
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('password rules', () => {
  it('refuses common and blank passwords on sign-up, reset and change alike', async () => {
    for (const password of ['password', 'Password1', '12345678', 'iloveyou1', 'qwertyuiop']) {
      const signup = await post('/api/signup', {
        email: uniqueEmail(),
        password,
        firstName: 'A',
        lastName: 'B',
      });
      expect(signup.statusCode, password).toBe(400);
      expect(signup.json().errors.password, password).toBe('This password is too common');
    }
    const blank = await post('/api/signup', {
      email: uniqueEmail(),
      password: '        ',
      firstName: 'A',
      lastName: 'B',
    });
    expect(blank.json().errors.password).toBe('Password cannot be only spaces');

    const email = uniqueEmail();
    const who = await signUp(t.app, { email });
    const change = await post(
      '/api/password/change',
      { currentPassword: 'correct horse battery', newPassword: 'football' },
      who,
    );
    expect(change.json().errors).toEqual({ newPassword: 'This password is too common' });

    await post('/api/password/forgot', { email });
    const token = tokenOf((await mail.waitFor(email, /Reset/)).link);
    const reset = await post('/api/password/reset', { token, password: 'baseball' });
    expect(reset.json().errors).toEqual({ password: 'This password is too common' });
    // The refusal left the link usable.
    expect(
      (await post('/api/password/reset', { token, password: 'a fine new one 7' })).statusCode,
    ).toBe(200);
  });

  it('accepts 64 × é (128 bytes, past bcrypt’s 72) and signs in with exactly it', async () => {
    const email = uniqueEmail();
    const password = 'é'.repeat(64);
    await signUp(t.app, { email, password });
    expect((await signIn(email, password)).statusCode).toBe(200);
    // A password that shares its first 72 bytes is another password.
    expect((await signIn(email, 'é'.repeat(36) + 'e'.repeat(28))).statusCode).toBe(401);
    expect((await signIn(email, 'é'.repeat(63))).statusCode).toBe(401);
  });

  it('still signs in with a hash made before (plain bcrypt), and replaces it', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    const legacy = await bcrypt.hash('an old password 1', 4);
    await t.database.db.update(users).set({ password: legacy }).where(eq(users.email, email));
    expect((await signIn(email, 'an old password 1')).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(row!.password.startsWith('cb1$')).toBe(true);
    expect((await signIn(email, 'an old password 1')).statusCode).toBe(200);
    expect((await signIn(email, 'an old password 2')).statusCode).toBe(401);
  });

  it('never puts back a password changed after the old hash was checked', async () => {
    const email = uniqueEmail();
    const who = await signUp(t.app, { email });
    const legacy = await bcrypt.hash('an old password 1', 4);
    await t.database.db.update(users).set({ password: legacy }).where(eq(users.email, email));
    // The sign-in checked `legacy`; meanwhile the owner set a new password.
    await t.database.db.update(users).set({ password: 'cb1$new' }).where(eq(users.email, email));
    await t.app.run((context) =>
      upgradePasswordHash(context, { kind: 'user', id: who.user.id }, legacy, 'cb1$upgraded'),
    );
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(row!.password).toBe('cb1$new');
  });
});

describe('email verification', () => {
  it('mails a link at sign-up; opening it marks the address verified', async () => {
    const email = uniqueEmail();
    const who = await signUp(t.app, { email });
    expect(who.user).toMatchObject({ emailVerified: false, emailNotifications: true });
    const message = await mail.waitFor(email, /Confirm your email/);
    expect(message.link).toMatch(new RegExp(`^${APP_URL}/verify-email\\?token=`));
    // Anyone with the link can open it (signed in or not): the token is the proof.
    const verify = await post('/api/email/verify', { token: tokenOf(message.link) });
    expect(verify.statusCode).toBe(200);
    const me = await as(t.app, who, { method: 'GET', url: '/api/auth/user' });
    expect(me.json().emailVerified).toBe(true);
    // A second click says it is done, rather than broken.
    const again = await post('/api/email/verify', { token: tokenOf(message.link) });
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toMatch(/already confirmed/);
    expect((await post('/api/email/verify', { token: 'made-up' })).statusCode).toBe(400);
  });

  it('resends on request, and the new link replaces the old one', async () => {
    const email = uniqueEmail();
    const who = await signUp(t.app, { email });
    const first = tokenOf((await mail.waitFor(email, /Confirm/)).link);
    const resend = await post('/api/email/verify/resend', {}, who);
    expect(resend.statusCode).toBe(200);
    await expect.poll(() => mail.to(email).length).toBe(2);
    const second = tokenOf(mail.to(email)[1]!.link);
    expect((await post('/api/email/verify', { token: first })).statusCode).toBe(400);
    expect((await post('/api/email/verify', { token: second })).statusCode).toBe(200);
  });

  it('shows staff whether a customer is verified', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    const staff = await signInStaff(t);
    const list = await as(t.app, staff, { method: 'GET', url: '/api/admin/users?limit=100' });
    expect(list.json().find((u: { email: string }) => u.email === email).emailVerified).toBe(false);
    await post('/api/email/verify', {
      token: tokenOf((await mail.waitFor(email, /Confirm/)).link),
    });
    const after = await as(t.app, staff, { method: 'GET', url: '/api/admin/users?limit=100' });
    expect(after.json().find((u: { email: string }) => u.email === email).emailVerified).toBe(true);
  });
});

describe('profile', () => {
  it('edits the names and the email switch, and every page sees the new name', async () => {
    const who = await signUp(t.app);
    const patch = await as(t.app, who, {
      method: 'PATCH',
      url: '/api/profile',
      payload: { firstName: '  Ada ', lastName: 'Lovelace', emailNotifications: false },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json()).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailNotifications: false,
    });
    const me = await as(t.app, who, { method: 'GET', url: '/api/auth/user' });
    expect(me.json()).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailNotifications: false,
    });
    const blank = await as(t.app, who, {
      method: 'PATCH',
      url: '/api/profile',
      payload: { firstName: ' ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toEqual({ firstName: 'First name is required' });
    const rows = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.accountId, who.user.id));
    expect(rows.length).toBe(1);
  });
});
