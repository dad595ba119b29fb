import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, ticketReplies } from '../../src/server/db/schema';
import { deleteOrphanUploads } from '../../src/server/modules/files/uploads';
import { setUpAppWithStaff } from './builders';
import { as, fixture, multipart, type SignedIn, signUp } from './helpers';

const { t, staff } = setUpAppWithStaff();

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
      attachmentUrl: 'Attachment must be a file you uploaded or a link starting with https://',
    });
    const script = await file(who, { ...valid, attachmentUrl: 'javascript:alert(1)' });
    expect(script.statusCode).toBe(400);
    expect((await file(who, { ...valid, attachmentUrl: '' })).statusCode).toBe(201);
  });

  it('takes a file the customer uploaded as in chat, served to them and staff, kept by the sweep', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const upload = async (who: SignedIn) => {
      const response = await as(t.app, who, {
        method: 'POST',
        url: '/api/chat/upload-attachment',
        ...multipart(fixture('card-front.jpg')),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().url as string;
    };
    const alicesFile = await upload(alice);
    const bobsFile = await upload(bob);
    // Another customer's file, and a plain http link, are refused.
    const foreign = await file(alice, { ...valid, attachmentUrl: bobsFile });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors.attachmentUrl).toBe(
      'Attachment must be a file you uploaded or a link starting with https://',
    );
    expect(
      (await file(alice, { ...valid, attachmentUrl: 'http://example.com/x.png' })).statusCode,
    ).toBe(400);

    const filed = await file(alice, { ...valid, attachmentUrl: alicesFile });
    expect(filed.statusCode, filed.body).toBe(201);
    expect(filed.json().attachmentUrl).toBe(alicesFile);
    const get = (who: SignedIn) => as(t.app, who, { method: 'GET', url: alicesFile });
    expect((await get(alice)).statusCode).toBe(200);
    expect((await get(staff)).statusCode).toBe(200);
    expect((await get(bob)).statusCode).toBe(404);
    // The sweep of unused uploads keeps the ticket's file and removes Bob's unsent one.
    const bobsOwn = () => as(t.app, bob, { method: 'GET', url: bobsFile });
    expect((await bobsOwn()).statusCode).toBe(200);
    await deleteOrphanUploads(t.app.db, t.app.storage, 0);
    expect((await get(alice)).statusCode).toBe(200);
    expect((await bobsOwn()).statusCode).toBe(404);
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
    // Awaiting staff, the longest-waiting first (decision 073): anywhere among the file's others.
    expect(list.find((r: { id: string }) => r.id === ticket.id)).toMatchObject({
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

  it('pages the tickets awaiting staff oldest first (decision 073) and filters by status', async () => {
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
    // All five wait for a reply: the longest-waiting first, among the file's other tickets.
    expect(seen.filter((id) => ids.includes(id))).toEqual(ids);
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

describe('ticket threads', () => {
  const thread = (who: SignedIn | undefined, id: string) =>
    as(t.app, who, { method: 'GET', url: `/api/support-tickets/${id}` });
  const staffThread = (who: SignedIn | undefined, id: string) =>
    as(t.app, who, { method: 'GET', url: `/api/admin/support-tickets/${id}` });
  const reply = (who: SignedIn | undefined, id: string, message: unknown) =>
    as(t.app, who, {
      method: 'POST',
      url: `/api/support-tickets/${id}/replies`,
      payload: { message },
    });
  const staffReply = (who: SignedIn | undefined, id: string, message: unknown) =>
    as(t.app, who, {
      method: 'POST',
      url: `/api/admin/support-tickets/${id}/replies`,
      payload: { message },
    });
  const setStatus = (id: string, status: string) =>
    as(t.app, staff, {
      method: 'PATCH',
      url: `/api/admin/support-tickets/${id}`,
      payload: { status },
    });
  const staffRow = async (id: string) =>
    (await as(t.app, staff, { method: 'GET', url: '/api/admin/support-tickets?limit=100' }))
      .json()
      .find((r: { id: string }) => r.id === id);

  it('staff answer, the customer reads it and answers back; each side sees whose turn it is', async () => {
    const customer = await signUp(t.app, { firstName: 'Uma', lastName: 'User' });
    const ticket = (await file(customer, valid)).json();
    expect(ticket).toMatchObject({ lastReplyBy: 'user', replyCount: 0 });
    // A new ticket waits for staff: nobody has answered its first message.
    expect(await staffRow(ticket.id)).toMatchObject({ lastReplyBy: 'user', replyCount: 0 });

    const answer = await staffReply(staff, ticket.id, '  We are looking into it.  ');
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toEqual({
      id: expect.any(String),
      authorKind: 'admin',
      authorName: 'Sam Staff',
      message: 'We are looking into it.',
      createdAt: expect.any(String),
    });
    expect(await staffRow(ticket.id)).toMatchObject({ lastReplyBy: 'admin', replyCount: 1 });

    const seen = await thread(customer, ticket.id);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({
      id: ticket.id,
      subject: valid.subject,
      message: valid.message,
      status: 'open',
      lastReplyBy: 'admin',
      replyCount: 1,
      replies: [{ authorKind: 'admin', authorName: 'Sam Staff' }],
    });
    // The customer's answer carries no account ids: theirs or the staff member's.
    expect(seen.json()).not.toHaveProperty('userId');
    expect(seen.json().replies[0]).not.toHaveProperty('authorId');
    expect((await mine(customer))[0]).toMatchObject({ lastReplyBy: 'admin', replyCount: 1 });

    // The customer is told: in the bell, with a link that opens the thread.
    const bell = (await as(t.app, customer, { method: 'GET', url: '/api/notifications' })).json();
    expect(bell.items[0]).toMatchObject({
      kind: 'ticket',
      title: `Support replied to “${valid.subject}”`,
      body: 'We are looking into it.',
      link: `/support?ticket=${ticket.id}`,
    });

    const back = await reply(customer, ticket.id, 'Thanks, it was PayPal.');
    expect(back.statusCode).toBe(201);
    expect(back.json()).toMatchObject({ authorKind: 'user', authorName: null });
    expect(await staffRow(ticket.id)).toMatchObject({ lastReplyBy: 'user', replyCount: 2 });

    const full = (await staffThread(staff, ticket.id)).json();
    expect(full).toMatchObject({
      userId: customer.user.id,
      userFirstName: 'Uma',
      email: valid.email,
      replies: [
        { authorKind: 'admin', message: 'We are looking into it.' },
        { authorKind: 'user', message: 'Thanks, it was PayPal.' },
      ],
    });
    expect((await thread(customer, ticket.id)).json().replies).toHaveLength(2);
  });

  it("shows a ticket's replies only to its customer and staff", async () => {
    const owner = await signUp(t.app);
    const stranger = await signUp(t.app);
    const ticket = (await file(owner, valid)).json();
    await staffReply(staff, ticket.id, 'Private answer');

    // Another customer's ticket is answered exactly like one that does not exist.
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const id of [ticket.id, missing, 'not-a-uuid']) {
      const read = await thread(stranger, id);
      expect(read.statusCode).toBe(404);
      expect(read.json()).toEqual({ message: 'Ticket not found' });
      const write = await reply(stranger, id, 'let me in');
      expect(write.statusCode).toBe(404);
      expect(write.json()).toEqual({ message: 'Ticket not found' });
    }
    expect(JSON.stringify((await thread(stranger, ticket.id)).json())).not.toContain('Private');
    expect((await mine(stranger)).map((r: { id: string }) => r.id)).not.toContain(ticket.id);
    const stored = await t.database.db
      .select()
      .from(ticketReplies)
      .where(eq(ticketReplies.ticketId, ticket.id));
    expect(stored.map((r) => r.message)).toEqual(['Private answer']);

    // Staff read every ticket through their own routes; the customer routes are not theirs.
    expect((await staffThread(staff, ticket.id)).json().replies).toHaveLength(1);
    expect((await staffThread(staff, missing)).statusCode).toBe(404);
    expect((await staffReply(staff, missing, 'hello')).statusCode).toBe(404);
    expect((await thread(staff, ticket.id)).statusCode).toBe(403);
    expect((await reply(staff, ticket.id, 'as staff')).statusCode).toBe(403);
    expect((await staffThread(owner, ticket.id)).statusCode).toBe(403);
    expect((await staffReply(owner, ticket.id, 'as staff')).statusCode).toBe(403);
    for (const response of [
      await thread(undefined, ticket.id),
      await reply(undefined, ticket.id, 'hi'),
      await staffThread(undefined, ticket.id),
      await staffReply(undefined, ticket.id, 'hi'),
    ]) {
      expect(response.statusCode).toBe(401);
    }
  });

  it('needs a message, trimmed, of at most 5000 characters', async () => {
    const owner = await signUp(t.app);
    const ticket = (await file(owner, valid)).json();
    for (const [who, send] of [
      [owner, reply],
      [staff, staffReply],
    ] as const) {
      const blank = await send(who, ticket.id, '   ');
      expect(blank.statusCode).toBe(400);
      expect(blank.json()).toEqual({
        message: 'Message is required',
        errors: { message: 'Message is required' },
      });
      expect((await send(who, ticket.id, undefined)).json().errors).toEqual({
        message: 'Message is required',
      });
      expect((await send(who, ticket.id, 'x'.repeat(5001))).json().errors).toEqual({
        message: 'Message is too long',
      });
      expect((await send(who, ticket.id, 42)).statusCode).toBe(400);
    }
    expect((await thread(owner, ticket.id)).json()).toMatchObject({ replyCount: 0, replies: [] });
  });

  it('reopens a resolved ticket when its customer answers, and refuses a closed one', async () => {
    const owner = await signUp(t.app);
    const ticket = (await file(owner, valid)).json();
    await setStatus(ticket.id, 'resolved');
    const reopened = await reply(owner, ticket.id, 'It happened again.');
    expect(reopened.statusCode).toBe(201);
    expect((await thread(owner, ticket.id)).json()).toMatchObject({
      status: 'open',
      lastReplyBy: 'user',
    });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, ticket.id), eq(auditLog.action, 'reopen')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorKind: 'user',
      actorId: owner.user.id,
      actorEmail: owner.user.email,
      changes: { status: { from: 'resolved', to: 'open' } },
    });

    await setStatus(ticket.id, 'closed');
    const refused = await reply(owner, ticket.id, 'Hello?');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: 'This ticket is closed. Please file a new ticket if you still need help.',
    });
    // Staff may still write in a closed ticket; it stays closed.
    expect((await staffReply(staff, ticket.id, 'Closing note')).statusCode).toBe(201);
    expect((await thread(owner, ticket.id)).json()).toMatchObject({
      status: 'closed',
      replyCount: 2,
      lastReplyBy: 'admin',
    });
    // A staff reply never changes the status: no audit row but the two status changes.
    const changes = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, ticket.id));
    expect(changes.map((c) => c.action).sort()).toEqual(['reopen', 'update', 'update']);
  });
});
