import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema';
import {
  as,
  type SignedIn,
  sessionCookie,
  setUpTestApp,
  signInStaff,
  signUp,
  uniqueEmail,
} from './helpers';

const t = setUpTestApp();

const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function signInFrom(email: string, userAgent: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/signin',
    payload: { email, password: 'correct horse battery' },
    headers: { 'user-agent': userAgent },
  });
  return sessionCookie(response)!;
}

const me = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
const list = (who: SignedIn) => as(t.app, who, { method: 'GET', url: '/api/sessions' });

describe('sessions the account can see and end', () => {
  it('lists each browser with its system, times, and which one is this', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    const laptop = await signInFrom(email, CHROME_ON_WINDOWS);
    const phone = await signInFrom(email, SAFARI_ON_IPHONE);
    const response = await list({ cookie: laptop, user: { id: '', email, isAdmin: false } });
    expect(response.statusCode).toBe(200);
    const sessions = response.json() as {
      id: string;
      browser: string;
      system: string;
      current: boolean;
      createdAt: string;
      lastSeenAt: string;
    }[];
    expect(sessions).toHaveLength(3);
    const current = sessions.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ browser: 'Chrome 131', system: 'Windows 10' });
    expect(sessions.find((s) => s.browser === 'Safari 17')?.system).toMatch(/^iOS 17/);
    for (const s of sessions) {
      expect(s.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Date(s.createdAt).getTime()).not.toBeNaN();
      expect(new Date(s.lastSeenAt).getTime()).not.toBeNaN();
    }
    // The list names sessions by their own id: no cookie token, no session key.
    const raw = response.body;
    for (const cookie of [laptop, phone]) {
      const token = decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!;
      expect(raw).not.toContain(token);
    }
  });

  it('ends one session by its id, and only the account’s own', async () => {
    const email = uniqueEmail();
    const owner = await signUp(t.app, { email });
    const phone = await signInFrom(email, SAFARI_ON_IPHONE);
    const phoneId = (await list(owner)).json().find((s: { current: boolean }) => !s.current).id;

    const stranger = await signUp(t.app);
    const theirs = await as(t.app, stranger, { method: 'DELETE', url: `/api/sessions/${phoneId}` });
    expect(theirs.statusCode).toBe(404);
    expect((await me(phone)).statusCode).toBe(200);

    const ended = await as(t.app, owner, { method: 'DELETE', url: `/api/sessions/${phoneId}` });
    expect(ended.statusCode).toBe(200);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(owner.cookie)).statusCode).toBe(200);
    expect(
      (await as(t.app, owner, { method: 'DELETE', url: '/api/sessions/not-an-id' })).statusCode,
    ).toBe(404);
  });

  it('ending the current session signs out', async () => {
    const who = await signUp(t.app);
    const mine = (await list(who)).json()[0].id;
    const response = await as(t.app, who, { method: 'DELETE', url: `/api/sessions/${mine}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toContain('cb.sid=;');
    expect((await me(who.cookie)).statusCode).toBe(401);
  });

  it('revoke-others ends every other session and keeps this one', async () => {
    const email = uniqueEmail();
    const here = await signUp(t.app, { email });
    const others = [
      await signInFrom(email, CHROME_ON_WINDOWS),
      await signInFrom(email, SAFARI_ON_IPHONE),
    ];
    const response = await as(t.app, here, { method: 'POST', url: '/api/sessions/revoke-others' });
    expect(response.json()).toEqual({ ended: 2 });
    for (const cookie of others) expect((await me(cookie)).statusCode).toBe(401);
    expect((await me(here.cookie)).statusCode).toBe(200);
    expect((await list(here)).json()).toHaveLength(1);
  });

  it('staff end every session of a customer, audited; customers cannot', async () => {
    const email = uniqueEmail();
    const customer = await signUp(t.app, { email });
    const second = await signInFrom(email, CHROME_ON_WINDOWS);
    const url = `/api/admin/users/${customer.user.id}/sessions/revoke`;
    expect((await as(t.app, customer, { method: 'POST', url })).statusCode).toBe(403);

    const staff = await signInStaff(t);
    const response = await as(t.app, staff, { method: 'POST', url });
    expect(response.json()).toEqual({ ended: 2 });
    expect((await me(customer.cookie)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'user'), eq(auditLog.entityId, customer.user.id)));
    expect(audit).toMatchObject({
      action: 'end_sessions',
      actorEmail: staff.user.email,
      changes: { sessions: { from: 2, to: 0 } },
    });
    const unknown = await as(t.app, staff, {
      method: 'POST',
      url: '/api/admin/users/00000000-0000-0000-0000-000000000000/sessions/revoke',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses anonymous callers', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/sessions' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/sessions/revoke-others' })).statusCode,
    ).toBe(401);
  });
});
