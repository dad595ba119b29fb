import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, chatMessages } from '../../src/server/db/schema';
import { setUpAppWithStaff } from './builders';
import { as, fixture, multipart, type SignedIn, signUp } from './helpers';

const { t, staff } = setUpAppWithStaff({}, 'support.agent@example.com');

const send = (who: SignedIn | undefined, payload: object) =>
  as(t.app, who, { method: 'POST', url: '/api/chat/messages', payload });
const messages = async (who: SignedIn) =>
  (await as(t.app, who, { method: 'GET', url: '/api/chat/messages' })).json();
const uploadAttachment = (who: SignedIn, name = 'card-front.jpg', type = 'image/jpeg') =>
  as(t.app, who, {
    method: 'POST',
    url: '/api/chat/upload-attachment',
    ...multipart(fixture(name), name, type),
  });

describe('customer chat', () => {
  it('keeps each customer in their own conversation, whatever the body says', async () => {
    const alice = await signUp(t.app, { firstName: 'Alice', lastName: 'A' });
    const bob = await signUp(t.app);
    const first = await send(alice, {
      message: 'Hello, is my card done?',
      senderType: 'admin',
      userId: bob.user.id,
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      userId: alice.user.id,
      senderType: 'user',
      senderName: null,
    });
    await send(alice, { message: '  second  ' });

    const mine = await messages(alice);
    expect(mine.map((m: { message: string }) => m.message)).toEqual([
      'Hello, is my card done?',
      'second',
    ]);
    expect(await messages(bob)).toEqual([]);
  });

  it('needs text or an attachment, and refuses anonymous callers', async () => {
    const who = await signUp(t.app);
    const blank = await send(who, { message: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toEqual({ message: 'Type a message or attach a file' });
    expect((await send(who, { message: 'x'.repeat(5001) })).json().errors.message).toBe(
      'Message is too long',
    );
    expect((await send(undefined, { message: 'hi' })).statusCode).toBe(401);
    expect(await messages(who)).toEqual([]);
  });

  it('accepts image and PDF attachments decided by their bytes', async () => {
    const who = await signUp(t.app);
    const image = await uploadAttachment(who);
    expect(image.statusCode).toBe(200);
    expect(image.json()).toEqual({
      url: expect.stringMatching(/^\/objects\/chat\/[0-9a-f-]{36}\.jpg$/),
      type: 'image',
    });
    const pdf = await uploadAttachment(who, 'purchase-receipt.pdf', 'application/pdf');
    expect(pdf.json().type).toBe('other');
    const text = await as(t.app, who, {
      method: 'POST',
      url: '/api/chat/upload-attachment',
      ...multipart(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'x.png', 'image/png'),
    });
    expect(text.statusCode).toBe(400);
    expect(text.json().error).toMatch(/Only images/);

    const sent = await send(who, {
      message: '',
      attachmentUrl: image.json().url,
      attachmentType: 'other',
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ message: '', attachmentType: 'image' });
  });

  it("refuses another person's attachment and serves files only to the conversation and staff", async () => {
    const alice = await signUp(t.app);
    const mallory = await signUp(t.app);
    const url = (await uploadAttachment(alice)).json().url;
    const stolen = await send(mallory, { message: 'look', attachmentUrl: url });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().errors).toEqual({ attachmentUrl: 'Attachment not found' });

    await send(alice, { message: 'my card', attachmentUrl: url });
    expect((await as(t.app, alice, { method: 'GET', url })).statusCode).toBe(200);
    expect((await as(t.app, mallory, { method: 'GET', url })).statusCode).toBe(404);
    expect((await as(t.app, staff, { method: 'GET', url })).statusCode).toBe(200);
  });
});

describe('staff replies', () => {
  it('must name an existing customer; the reply lands in that conversation with the staff name', async () => {
    const customer = await signUp(t.app);
    expect((await send(staff, { message: 'Hi' })).json().errors).toEqual({
      userId: 'Choose the customer to reply to',
    });
    expect(
      (await send(staff, { message: 'Hi', userId: '00000000-0000-4000-8000-000000000000' }))
        .statusCode,
    ).toBe(400);

    const attachment = (
      await uploadAttachment(staff, 'purchase-receipt.pdf', 'application/pdf')
    ).json();
    const reply = await send(staff, {
      message: 'Your card is being reviewed.',
      userId: customer.user.id,
      senderType: 'user',
      attachmentUrl: attachment.url,
    });
    expect(reply.statusCode).toBe(201);
    expect(reply.json()).toMatchObject({
      userId: customer.user.id,
      senderType: 'admin',
      senderName: 'Sam Staff',
      attachmentType: 'other',
    });
    const seen = await messages(customer);
    expect(seen.at(-1)).toMatchObject({
      senderType: 'admin',
      message: 'Your card is being reviewed.',
    });
    // The customer may open the file staff sent in their conversation; another customer may not.
    expect((await as(t.app, customer, { method: 'GET', url: attachment.url })).statusCode).toBe(
      200,
    );
    expect(
      (await as(t.app, await signUp(t.app), { method: 'GET', url: attachment.url })).statusCode,
    ).toBe(404);
    expect(await messages(staff)).toEqual([]);
  });

  it('GET /api/admin/chats lists every message newest first with the customer fields', async () => {
    const customer = await signUp(t.app, { firstName: 'Nora', lastName: 'North' });
    await send(customer, { message: 'one' });
    await send(staff, { message: 'two', userId: customer.user.id });
    const list = (await as(t.app, staff, { method: 'GET', url: '/api/admin/chats' })).json();
    expect(list[0]).toMatchObject({
      message: 'two',
      senderType: 'admin',
      userId: customer.user.id,
      userEmail: customer.user.email,
      userFirstName: 'Nora',
      userLastName: 'North',
    });
    expect(list[1]).toMatchObject({ message: 'one', senderType: 'user' });
    expect((await as(t.app, customer, { method: 'GET', url: '/api/admin/chats' })).statusCode).toBe(
      403,
    );
    expect(
      (await as(t.app, undefined, { method: 'GET', url: '/api/admin/chats' })).statusCode,
    ).toBe(401);
  });

  it('DELETE /api/admin/chats clears every message and file, and records who and how many', async () => {
    const customer = await signUp(t.app);
    const url = (await uploadAttachment(customer)).json().url;
    await send(customer, { message: 'before the clear', attachmentUrl: url });
    expect(
      (await as(t.app, customer, { method: 'DELETE', url: '/api/admin/chats', payload: {} }))
        .statusCode,
    ).toBe(403);

    const total = (await t.database.db.select().from(chatMessages)).length;
    const response = await as(t.app, staff, {
      method: 'DELETE',
      url: '/api/admin/chats',
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, deleted: total });
    expect(await t.database.db.select().from(chatMessages)).toEqual([]);
    expect((await as(t.app, customer, { method: 'GET', url })).statusCode).toBe(404);

    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'chat'), eq(auditLog.action, 'clear')));
    expect(entry).toMatchObject({
      actorEmail: 'support.agent@example.com',
      changes: { messages: { from: total, to: 0 } },
    });
  });
});

describe('staff conversation list', () => {
  const { t: fresh, staff: agent } = setUpAppWithStaff();
  const list = (query = '') =>
    as(fresh.app, agent, { method: 'GET', url: `/api/admin/conversations${query}` });
  const say = (who: SignedIn, message: string) =>
    as(fresh.app, who, { method: 'POST', url: '/api/chat/messages', payload: { message } });
  const answer = (customer: SignedIn, message: string) =>
    as(fresh.app, agent, {
      method: 'POST',
      url: '/api/chat/messages',
      payload: { message, userId: customer.user.id },
    });
  const read = (who: SignedIn | undefined, userId: string, payload: object = {}) =>
    as(fresh.app, who, { method: 'POST', url: `/api/admin/conversations/${userId}/read`, payload });
  const rowOf = async (customer: SignedIn) =>
    (await list('?limit=100'))
      .json()
      .find((r: { userId: string }) => r.userId === customer.user.id);
  const unreadTotal = async () =>
    (await as(fresh.app, agent, { method: 'GET', url: '/api/admin/stats' })).json()
      .unreadChatMessages;

  it('has one row per customer with the last message and the counts, needing a reply first', async () => {
    const ann = await signUp(fresh.app, { firstName: 'Ann', lastName: 'One' });
    const ben = await signUp(fresh.app, { firstName: 'Ben', lastName: 'Two' });
    await say(ann, 'first from Ann');
    await say(ben, 'from Ben');
    await say(ann, 'second from Ann');
    await as(fresh.app, agent, {
      method: 'POST',
      url: '/api/chat/messages',
      payload: { message: 'Staff answer to Ben', userId: ben.user.id },
    });
    const rows = (await list()).json();
    // Ben's last message is newer, but Ann waits for an answer: she comes first.
    expect(rows.map((r: { userId: string }) => r.userId)).toEqual([ann.user.id, ben.user.id]);
    expect(rows[0]).toMatchObject({
      userEmail: ann.user.email,
      lastMessage: 'second from Ann',
      lastSenderType: 'user',
      messageCount: 2,
      customerMessageCount: 2,
      unreadCount: 2,
      needsReply: true,
    });
    expect(rows[1]).toMatchObject({
      userFirstName: 'Ben',
      lastMessage: 'Staff answer to Ben',
      lastSenderType: 'admin',
      messageCount: 2,
      customerMessageCount: 1,
      unreadCount: 1,
      needsReply: false,
    });

    const thread = await as(fresh.app, agent, {
      method: 'GET',
      url: `/api/admin/conversations/${ann.user.id}`,
    });
    expect(thread.json().map((m: { message: string }) => m.message)).toEqual([
      'first from Ann',
      'second from Ann',
    ]);
    expect(
      (await as(fresh.app, ann, { method: 'GET', url: '/api/admin/conversations' })).statusCode,
    ).toBe(403);
    expect(
      (await as(fresh.app, ann, { method: 'GET', url: `/api/admin/conversations/${ann.user.id}` }))
        .statusCode,
    ).toBe(403);
  });

  it('keeps every other customer on the first page when one customer floods', async () => {
    const quiet = await signUp(fresh.app, { firstName: 'Quiet' });
    await say(quiet, 'one question');
    const flooder = await signUp(fresh.app, { firstName: 'Flood' });
    await fresh.database.pool.query(
      `insert into chat_messages (user_id, sender_type, message)
       select $1, 'user', 'spam ' || n from generate_series(1, 2500) n`,
      [flooder.user.id],
    );
    fresh.app.live.changedEverywhere(['chats']);
    const rows = (await list()).json();
    const ids = rows.map((r: { userId: string }) => r.userId);
    // Both wait for a reply; the quiet customer has waited longer, so comes first (decision 073).
    expect(ids).toContain(quiet.user.id);
    expect(ids.indexOf(quiet.user.id)).toBeLessThan(ids.indexOf(flooder.user.id));
    expect(rows.find((r: { userId: string }) => r.userId === flooder.user.id).messageCount).toBe(
      2500,
    );
    // The old list of newest messages has only the flood in it.
    const messages = (
      await as(fresh.app, agent, { method: 'GET', url: '/api/admin/chats' })
    ).json();
    expect(messages.every((m: { userId: string }) => m.userId === flooder.user.id)).toBe(true);
  });

  it('pages with a cursor through the needing-a-reply-first order, each customer exactly once', async () => {
    for (let i = 0; i < 7; i++) {
      const who = await signUp(fresh.app);
      await say(who, `hello ${i}`);
      if (i % 2 === 0) await answer(who, `answer ${i}`);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.statusCode).toBe(200);
      seen.push(...page.json().map((r: { userId: string }) => r.userId));
      cursor = page.headers['x-next-cursor'] as string | undefined;
      pages++;
    } while (cursor);
    const rows = (await list('?limit=100')).json() as { userId: string; needsReply: boolean }[];
    const all = rows.map((r) => r.userId);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages).toBe(Math.ceil(all.length / 2));
    // No answered conversation before one that needs a reply.
    const flags = rows.map((r) => r.needsReply);
    expect(flags).toContain(false);
    expect(flags).toEqual([...flags].sort((a, b) => Number(b) - Number(a)));
    expect((await list('?cursor=bm9wZQ')).statusCode).toBe(400);
    // A cursor of the old key (time, id) is refused too, never a 5xx.
    const old = Buffer.from(
      JSON.stringify(['2026-01-01 00:00:00+00', '00000000-0000-4000-8000-000000000000']),
    ).toString('base64url');
    const bad = await list(`?cursor=${old}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Invalid cursor', errors: { cursor: 'Invalid cursor' } });
  });

  it('counts the customer’s unread messages until staff open the thread', async () => {
    const before = await unreadTotal();
    const cara = await signUp(fresh.app, { firstName: 'Cara' });
    await say(cara, 'one');
    const second = (await say(cara, 'two')).json();
    expect(await rowOf(cara)).toMatchObject({ unreadCount: 2, needsReply: true });
    expect(await unreadTotal()).toBe(before + 2);

    // A message that arrives after the thread was drawn stays unread.
    await say(cara, 'three');
    const opened = await read(agent, cara.user.id, { throughMessageId: second.id });
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toEqual({ marked: 2, unreadCount: 1 });
    expect(await rowOf(cara)).toMatchObject({ unreadCount: 1, needsReply: true });
    expect(await unreadTotal()).toBe(before + 1);

    expect((await read(agent, cara.user.id)).json()).toEqual({ marked: 1, unreadCount: 0 });
    expect((await read(agent, cara.user.id)).json()).toEqual({ marked: 0, unreadCount: 0 });
    expect(await unreadTotal()).toBe(before);
    const seen = (
      await as(fresh.app, cara, { method: 'GET', url: '/api/chat/messages' })
    ).json() as { isRead: boolean }[];
    expect(seen.map((m) => m.isRead)).toEqual([true, true, true]);

    // Answering ends "needs reply"; the customer's next message brings it back, unread.
    await answer(cara, 'Hello Cara');
    expect(await rowOf(cara)).toMatchObject({ unreadCount: 0, needsReply: false });
    await say(cara, 'four');
    expect(await rowOf(cara)).toMatchObject({ unreadCount: 1, needsReply: true });
  });

  it('marks read for staff only, in an existing conversation, up to one of its messages', async () => {
    const dan = await signUp(fresh.app);
    const eve = await signUp(fresh.app);
    await say(dan, 'hello');
    const evesMessage = (await say(eve, 'mine')).json();
    expect((await read(undefined, dan.user.id)).statusCode).toBe(401);
    expect((await read(dan, dan.user.id)).statusCode).toBe(403);
    expect((await read(agent, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await read(agent, 'not-a-uuid')).statusCode).toBe(404);
    const foreign = await read(agent, dan.user.id, { throughMessageId: evesMessage.id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual({
      throughMessageId: 'Choose a message of this conversation',
    });
    expect((await read(agent, dan.user.id, { throughMessageId: 'x' })).statusCode).toBe(400);
    // Nothing above marked anything.
    expect(await rowOf(dan)).toMatchObject({ unreadCount: 1 });
    expect(await rowOf(eve)).toMatchObject({ unreadCount: 1 });
  });

  it('forgets conversations when chats are cleared', async () => {
    await as(fresh.app, agent, { method: 'DELETE', url: '/api/admin/chats', payload: {} });
    expect((await list()).json()).toEqual([]);
    const again = await signUp(fresh.app);
    await say(again, 'after the clear');
    expect((await list()).json()).toMatchObject([{ userId: again.user.id, messageCount: 1 }]);
  });
});
