import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema';
import { as, createTestApp, type SignedIn, signInStaff, signUp, type TestApp } from './helpers';

let t: TestApp;
let staff: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  staff = await signInStaff(t);
});
afterAll(() => t.close());

const file = (who: SignedIn | undefined, payload: object) =>
  as(t.app, who, { method: 'POST', url: '/api/support-tickets', payload });
const mine = async (who: SignedIn) =>
  (await as(t.app, who, { method: 'GET', url: '/api/support-tickets' })).json();
const valid = {
  email: 'me@example.com',
  subject: 'Card still pending',
  message: 'Submitted yesterday.',
};

describe('support tickets', () => {
  it('files a ticket as open and lists only the caller’s own', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const response = await file(alice, {
      ...valid,
      attachmentUrl: 'https://example.com/receipt.png',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      ...valid,
      status: 'open',
      attachmentUrl: 'https://example.com/receipt.png',
    });
    expect(await mine(alice)).toHaveLength(1);
    expect(await mine(bob)).toEqual([]);
  });

  it('answers the rules of section 5 with 400', async () => {
    const who = await signUp(t.app);
    const response = await file(who, {
      email: 'nope',
      subject: ' ',
      message: '',
      attachmentUrl: 'not a url',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      email: 'Invalid email address',
      subject: 'Subject is required',
      message: 'Message is required',
      attachmentUrl: 'Attachment must be a valid URL (http or https)',
    });
    const script = await file(who, { ...valid, attachmentUrl: 'javascript:alert(1)' });
    expect(script.statusCode).toBe(400);
    expect((await file(who, { ...valid, attachmentUrl: '' })).statusCode).toBe(201);
  });

  it('is for customers: staff 403, anonymous 401', async () => {
    expect((await file(staff, valid)).statusCode).toBe(403);
    expect((await file(undefined, valid)).statusCode).toBe(401);
    expect(
      (await as(t.app, undefined, { method: 'GET', url: '/api/support-tickets' })).statusCode,
    ).toBe(401);
  });
});

describe('staff and tickets', () => {
  it('lists every ticket and moves one to resolved, with an audit row', async () => {
    const customer = await signUp(t.app, { firstName: 'Tia', lastName: 'Ticket' });
    const ticket = (await file(customer, valid)).json();
    const list = (
      await as(t.app, staff, { method: 'GET', url: '/api/admin/support-tickets' })
    ).json();
    expect(list[0]).toMatchObject({
      id: ticket.id,
      userId: customer.user.id,
      userFirstName: 'Tia',
      status: 'open',
    });

    const patch = (who: SignedIn, id: string, payload: object) =>
      as(t.app, who, { method: 'PATCH', url: `/api/admin/support-tickets/${id}`, payload });
    expect((await patch(staff, ticket.id, { status: 'done' })).json().errors.status).toMatch(
      /^Status must be one of/,
    );
    expect((await patch(customer, ticket.id, { status: 'resolved' })).statusCode).toBe(403);
    expect(
      (await patch(staff, '00000000-0000-4000-8000-000000000000', { status: 'resolved' }))
        .statusCode,
    ).toBe(404);

    const resolved = await patch(staff, ticket.id, { status: 'resolved' });
    expect(resolved.statusCode).toBe(200);
    expect((await mine(customer))[0].status).toBe('resolved');
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, ticket.id));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.changes).toEqual({ status: { from: 'open', to: 'resolved' } });
    expect(
      (await as(t.app, customer, { method: 'GET', url: '/api/admin/support-tickets' })).statusCode,
    ).toBe(403);
  });
});

describe('staff ticket list', () => {
  const listTickets = (query = '') =>
    as(t.app, staff, { method: 'GET', url: `/api/admin/support-tickets${query}` });

  it('pages newest first and filters by status', async () => {
    const who = await signUp(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await file(who, { ...valid, subject: `Paged ${i}` })).json().id);
    await as(t.app, staff, {
      method: 'PATCH',
      url: `/api/admin/support-tickets/${ids[1]}`,
      payload: { status: 'in_progress' },
    });

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listTickets(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.statusCode).toBe(200);
      expect(page.json().length).toBeLessThanOrEqual(2);
      seen.push(...page.json().map((r: { id: string }) => r.id));
      cursor = page.headers['x-next-cursor'] as string | undefined;
    } while (cursor);
    expect(seen.slice(0, 5)).toEqual([...ids].reverse());
    expect(new Set(seen).size).toBe(seen.length);

    const inProgress = (await listTickets('?status=in_progress&limit=100')).json();
    expect(inProgress.map((r: { id: string }) => r.id)).toContain(ids[1]);
    expect(inProgress.every((r: { status: string }) => r.status === 'in_progress')).toBe(true);
    expect((await listTickets('?status=all&limit=100')).json().length).toBe(seen.length);
    const bad = await listTickets('?status=lost');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(
      'Status must be one of: all, open, in_progress, resolved, closed',
    );
    expect((await listTickets('?cursor=garbage')).statusCode).toBe(400);
  });
});
