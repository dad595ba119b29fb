import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema';
import { LAST_OWNER } from '../../src/shared/staff';
import {
  as,
  freshCode,
  type SignedIn,
  sessionCookie,
  setUpTestApp,
  signInAs,
  signInStaff,
  uniqueEmail,
} from './helpers';
import { setUpMailServer } from './mail-server';

const mail = setUpMailServer();
const t = setUpTestApp(() => mail.appConfig());
const tokenOf = (link: string | undefined) => new URL(link!).searchParams.get('token')!;

const invite = (who: SignedIn, email: string, role = 'reviewer') =>
  as(t.app, who, { method: 'POST', url: '/api/admin/staff/invitations', payload: { email, role } });
const accept = (token: string, extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/staff-invitations/accept',
    payload: {
      token,
      password: 'a long staff password',
      firstName: 'Ina',
      lastName: 'Vite',
      ...extra,
    },
  });
const patch = (who: SignedIn, id: string, payload: object) =>
  as(t.app, who, { method: 'PATCH', url: `/api/admin/staff/${id}`, payload });
const list = async (who: SignedIn) =>
  (await as(t.app, who, { method: 'GET', url: '/api/admin/staff' })).json() as Array<{
    id: string;
    email: string;
    role: string;
    active: boolean;
    twoFactorEnabled: boolean;
    lastSignInAt: string | null;
  }>;

describe('staff invitations', () => {
  it('mails a 72-hour link; the invitee sets a name and password, then enrols two-factor', async () => {
    const owner = await signInAs(t, 'owner');
    const email = uniqueEmail('invitee');
    const invited = await invite(owner, email);
    expect(invited.statusCode).toBe(201);
    expect(invited.json()).toMatchObject({ email, role: 'reviewer', active: false });
    const message = await mail.waitFor(email, /invited to join the Cardbridge staff/);
    expect(message.link).toMatch(/\/staff-invitation\?token=[\w-]{43}$/);
    const token = tokenOf(message.link);

    // No sign-in before acceptance.
    const early = await t.app.inject({
      method: 'POST',
      url: '/api/admin/signin',
      payload: { email, password: '' },
    });
    expect(early.statusCode).toBe(400);

    const accepted = await accept(token);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({
      email,
      firstName: 'Ina',
      isAdmin: true,
      staffRole: 'reviewer',
    });
    // Used once only.
    const again = await accept(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.token).toMatch(/not valid or has expired/);

    // The first sign-in enrols two-factor, then the reviewer reaches the queue, not the rates.
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/admin/signin',
      payload: { email, password: 'a long staff password' },
    });
    expect(first.json()).toMatchObject({ twoFactorRequired: true, secret: expect.any(String) });
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/admin/signin/verify',
      payload: { code: await freshCode(first.json().secret, t.now) },
      headers: { cookie: sessionCookie(first)! },
    });
    expect(second.statusCode).toBe(200);
    const reviewer = { cookie: sessionCookie(second)!, user: second.json() };
    expect(
      (await as(t.app, reviewer, { method: 'GET', url: '/api/admin/transactions' })).statusCode,
    ).toBe(200);
    expect(
      (await as(t.app, reviewer, { method: 'GET', url: '/api/admin/staff' })).json().code,
    ).toBe('forbidden_role');

    const row = (await list(owner)).find((m) => m.email === email)!;
    expect(row).toMatchObject({ role: 'reviewer', active: true, twoFactorEnabled: true });
    expect(row.lastSignInAt).not.toBeNull();
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, row.id));
    // The enrolment is in the staff member's trail too (decision 100).
    expect(audit.map((a) => a.action).sort()).toEqual([
      'accept_invitation',
      'invite',
      'two_factor_on',
    ]);
  });

  it('refuses an expired link, and an email that already has a staff account', async () => {
    const owner = await signInAs(t, 'owner');
    const email = uniqueEmail('late');
    expect((await invite(owner, email, 'support')).statusCode).toBe(201);
    const token = tokenOf((await mail.waitFor(email, /invited/)).link);
    expect((await invite(owner, owner.user.email)).statusCode).toBe(409);
    t.advance(72 * 60 * 60 * 1000 + 1000);
    const late = await accept(token);
    expect(late.statusCode).toBe(400);
  });

  it('checks the password as for any staff account', async () => {
    const owner = await signInAs(t, 'owner');
    const email = uniqueEmail('weak');
    await invite(owner, email);
    const token = tokenOf((await mail.waitFor(email, /invited/)).link);
    const weak = await accept(token, { password: 'password123' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors.password).toBe('This password is too common');
    expect((await accept(token)).statusCode).toBe(200);
  });
});

describe('what an invitation says, and sending it again (issue 43, item 14)', () => {
  const preview = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/staff-invitations/preview', payload: { token } });
  const resend = (who: SignedIn, id: string) =>
    as(t.app, who, { method: 'POST', url: `/api/admin/staff/${id}/invitation` });

  it('names the email and role a link is for, without using it up', async () => {
    const owner = await signInAs(t, 'owner');
    const email = uniqueEmail('named');
    await invite(owner, email, 'support');
    const token = tokenOf((await mail.waitFor(email, /invited/)).link);
    const named = await preview(token);
    expect(named.statusCode).toBe(200);
    expect(named.json()).toEqual({ email, role: 'support' });
    expect((await accept(token)).statusCode).toBe(200);
    // Accepted, or made up: the same refusal as accepting it.
    for (const dead of [token, 'x'.repeat(43)]) {
      const refused = await preview(dead);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors.token).toMatch(/not valid or has expired/);
    }
  });

  it('an owner resends a pending invitation: a new link, the old one ended, audited', async () => {
    const owner = await signInAs(t, 'owner');
    const email = uniqueEmail('again');
    const { id } = (await invite(owner, email)).json();
    const first = tokenOf((await mail.waitFor(email, /invited/)).link);

    const sent = await resend(owner, id);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ id, email, invitationPending: true });
    await mail.waitFor(email, /invited/);
    await expect.poll(() => mail.to(email).length).toBe(2);
    const second = tokenOf(mail.to(email)[1]!.link);
    expect(second).not.toBe(first);
    expect((await preview(first)).statusCode).toBe(400);
    expect((await preview(second)).json()).toEqual({ email, role: 'reviewer' });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, id));
    expect(audit.map((a) => a.action).sort()).toEqual(['invite', 'resend_invitation']);
    expect(audit.find((a) => a.action === 'resend_invitation')!.actorId).toBe(owner.user.id);

    // Once accepted there is nothing to resend; an unknown id is 404; only owners may.
    expect((await accept(second)).statusCode).toBe(200);
    const late = await resend(owner, id);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('not_pending');
    expect((await resend(owner, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    for (const role of ['reviewer', 'support', 'finance'] as const) {
      const other = await signInAs(t, role);
      const refused = await resend(other, id);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('forbidden_role');
    }
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/admin/staff/${id}/invitation` })).statusCode,
    ).toBe(401);
  });
});

describe('roles and deactivation', () => {
  it('changes a role, which the staff member’s session follows at once', async () => {
    const owner = await signInAs(t, 'owner');
    const support = await signInAs(t, 'support');
    expect(
      (await as(t.app, support, { method: 'GET', url: '/api/admin/payouts' })).statusCode,
    ).toBe(403);
    const changed = await patch(owner, support.user.id, { role: 'finance' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().role).toBe('finance');
    expect(
      (await as(t.app, support, { method: 'GET', url: '/api/admin/payouts' })).statusCode,
    ).toBe(200);
    const me = await as(t.app, support, { method: 'GET', url: '/api/auth/user' });
    expect(me.json().staffRole).toBe('finance');
  });

  it('deactivation ends the sessions and the sign-in', async () => {
    const owner = await signInAs(t, 'owner');
    const email = uniqueEmail('leaver');
    const leaver = await signInStaff(t, email);
    await t.database.db.execute(`update admins set role = 'reviewer' where email = '${email}'`);
    const off = await patch(owner, leaver.user.id, { active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().active).toBe(false);
    expect((await as(t.app, leaver, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(
      401,
    );
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/admin/signin',
      payload: { email, password: 'staff password 1' },
    });
    expect(again.statusCode).toBe(401);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, leaver.user.id));
    expect(audit.map((a) => a.action)).toContain('deactivate');
  });

  it('keeps the last active owner: no demotion, no deactivation, not even two at once', async () => {
    // Every other owner of this file's database steps down first.
    const owner = await signInAs(t, 'owner');
    const other = await signInAs(t, 'owner');
    for (const m of await list(owner)) {
      if (m.role === 'owner' && m.active && m.id !== owner.user.id && m.id !== other.user.id) {
        expect((await patch(owner, m.id, { role: 'reviewer' })).statusCode).toBe(200);
      }
    }
    // Two owners demote each other at once: one goes through, the other is refused.
    const both = await Promise.all([
      patch(owner, other.user.id, { role: 'support' }),
      patch(other, owner.user.id, { role: 'support' }),
    ]);
    const codes = both.map((r) => r.statusCode).sort();
    // The one demoted first loses the right to demote (403), or the check refuses it (409).
    expect(codes[0]).toBe(200);
    expect([403, 409]).toContain(codes[1]);
    const owners = (await list(both[0]!.statusCode === 200 ? owner : other)).filter(
      (m) => m.role === 'owner' && m.active,
    );
    expect(owners).toHaveLength(1);
    const last = owners[0]!;
    const lastOwner = last.id === owner.user.id ? owner : other;
    const demote = await patch(lastOwner, last.id, { role: 'reviewer' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toMatchObject({ code: 'last_owner', message: LAST_OWNER });
    expect((await patch(lastOwner, last.id, { active: false })).statusCode).toBe(409);
  });
});
