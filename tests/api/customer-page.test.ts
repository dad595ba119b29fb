import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, customerNotes } from '../../src/server/db/schema';
import { CUSTOMER_NOTE_MAX_LENGTH, type CustomerPage } from '../../src/shared/customer-page';
import { can, FORBIDDEN_ROLE, STAFF_ROLES } from '../../src/shared/staff-roles';
import {
  addPaymentMethod,
  as,
  reviewCard,
  type SignedIn,
  setUpTestApp,
  signInAs,
  signUp,
  submitCard,
} from './helpers';

const t = setUpTestApp();

const page = (who: SignedIn | undefined, id: string) =>
  as(t.app, who, { method: 'GET', url: `/api/admin/users/${id}` });
const note = (who: SignedIn | undefined, id: string, payload: unknown) =>
  as(t.app, who, {
    method: 'POST',
    url: `/api/admin/users/${id}/notes`,
    payload: payload as object,
  });

/** A customer with a bank method, two cards (one approved), a chat message and a ticket. */
async function busyCustomer() {
  const customer = await signUp(t.app, { firstName: 'Paige', lastName: 'Person' });
  const bank = await addPaymentMethod(t.app, customer, {
    type: 'bank_transfer',
    accountName: 'Paige Person',
    identifier: null,
    accountNumber: '000123456789',
    routingNumber: '021000021',
    bankName: 'Chase',
  });
  const first = (await submitCard(t.app, customer, { paymentMethodId: bank.id })).json();
  const second = (await submitCard(t.app, customer, { paymentMethodId: bank.id })).json();
  const owner = await signInAs(t, 'owner');
  expect((await reviewCard(t.app, owner, first.id, { status: 'processing' })).statusCode).toBe(200);
  await as(t.app, customer, {
    method: 'POST',
    url: '/api/chat/messages',
    payload: { message: 'Where is my money?' },
  });
  await as(t.app, customer, {
    method: 'POST',
    url: '/api/support-tickets',
    payload: { email: customer.user.email, subject: 'Payout question', message: 'When?' },
  });
  return { customer, bank, first, second, owner };
}

describe('GET /api/admin/users/:id (issue 43 item 15)', () => {
  it('answers every section of one customer, each list its first page', async () => {
    const { customer, bank, first, second, owner } = await busyCustomer();
    const other = await signUp(t.app);
    await submitCard(t.app, other);
    expect(
      (await note(owner, customer.user.id, { body: 'Called about the Chase account' })).statusCode,
    ).toBe(201);

    const response = await page(owner, customer.user.id);
    expect(response.statusCode).toBe(200);
    const body = response.json() as CustomerPage;
    expect(Object.keys(body).sort()).toEqual(
      [
        'user',
        'transactions',
        'payouts',
        'paymentMethods',
        'verification',
        'standing',
        'sessions',
        'chat',
        'tickets',
        'notes',
      ].sort(),
    );
    expect(body.user).toMatchObject({
      id: customer.user.id,
      email: customer.user.email,
      firstName: 'Paige',
      standing: 'active',
    });
    // Only this customer's cards, newest first; the other customer's card is not among them.
    expect(body.transactions.items.map((c) => c.id)).toEqual([second.id, first.id]);
    expect(body.transactions.nextCursor).toBeNull();
    // The approved card waits for payment; the pending one is no payout yet.
    expect(body.payouts.items.map((p) => [p.id, p.paymentStatus, p.amount])).toEqual([
      [first.id, 'pending', first.expectedPayout],
    ]);
    expect(body.payouts.items[0]!.paymentMethodType).toBe('bank_transfer');
    expect(body.paymentMethods.map((m) => m.id)).toContain(bank.id);
    expect(body.verification).toMatchObject({ level: 0, status: 'none' });
    expect(body.standing).toMatchObject({ standing: 'active', reason: null, history: [] });
    expect(body.sessions.length).toBeGreaterThan(0);
    expect(body.sessions[0]).not.toHaveProperty('current');
    expect(body.chat!.items.map((m) => m.message)).toEqual(['Where is my money?']);
    expect(body.tickets!.items.map((x) => x.subject)).toEqual(['Payout question']);
    expect(body.notes.items.map((n) => n.body)).toEqual(['Called about the Chase account']);
    expect(body.notes.items[0]!.authorId).toBe(owner.user.id);
  });

  it('shows payment methods exactly as the review dialog shows the card’s method', async () => {
    const { customer, bank, first, owner } = await busyCustomer();
    const body = (await page(owner, customer.user.id)).json() as CustomerPage;
    const review = (
      await as(t.app, owner, { method: 'GET', url: `/api/admin/transactions/${first.id}` })
    ).json();
    const method = body.paymentMethods.find((m) => m.id === bank.id)!;
    expect({
      type: method.type,
      accountName: method.accountName,
      identifier: method.identifier,
      accountNumber: method.accountNumber,
      bankName: method.bankName,
      routingNumber: method.routingNumber,
    }).toEqual({
      type: review.paymentMethodType,
      accountName: review.paymentMethodAccountName,
      identifier: review.paymentMethodIdentifier,
      accountNumber: review.paymentMethodAccountNumber,
      bankName: review.paymentMethodBankName,
      routingNumber: review.paymentMethodRoutingNumber,
    });
    // The page carries nothing of a method the review does not (no secrets, no owner id).
    expect(Object.keys(method).sort()).toEqual(
      [
        'id',
        'type',
        'accountName',
        'identifier',
        'accountNumber',
        'bankName',
        'routingNumber',
        'isDefault',
        'createdAt',
        'payoutsFrom',
      ].sort(),
    );
    // A method the customer deleted is not listed.
    const spare = await addPaymentMethod(t.app, customer);
    await as(t.app, customer, { method: 'DELETE', url: `/api/payment-methods/${spare.id}` });
    const after = (await page(owner, customer.user.id)).json() as CustomerPage;
    expect(after.paymentMethods.map((m) => m.id)).not.toContain(spare.id);
  });

  it('lets each role read it as users.read says, and hides chat and tickets from roles without them', async () => {
    const { customer } = await busyCustomer();
    const wrong: string[] = [];
    for (const role of STAFF_ROLES) {
      const staff = await signInAs(t, role);
      const response = await page(staff, customer.user.id);
      if (!can(role, 'users.read')) {
        if (response.statusCode !== 403 || response.json().code !== FORBIDDEN_ROLE)
          wrong.push(`${role}: ${response.statusCode}`);
        const written = await note(staff, customer.user.id, { body: 'not mine to write' });
        if (written.statusCode !== 403) wrong.push(`${role} note: ${written.statusCode}`);
        continue;
      }
      if (response.statusCode !== 200) {
        wrong.push(`${role}: ${response.statusCode}`);
        continue;
      }
      const body = response.json() as CustomerPage;
      if ((body.chat !== null) !== can(role, 'chat')) wrong.push(`${role} chat: ${!!body.chat}`);
      if ((body.tickets !== null) !== can(role, 'tickets'))
        wrong.push(`${role} tickets: ${!!body.tickets}`);
    }
    expect(wrong).toEqual([]);
    // Signed out: 401. A customer, even about themselves: 403.
    expect((await page(undefined, customer.user.id)).statusCode).toBe(401);
    expect((await page(customer, customer.user.id)).statusCode).toBe(403);
    expect((await note(customer, customer.user.id, { body: 'self' })).statusCode).toBe(403);
  });

  it('answers 404 with a message for an unknown id, and for a malformed one', async () => {
    const owner = await signInAs(t, 'owner');
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1']) {
      const response = await page(owner, id);
      expect(response.statusCode, id).toBe(404);
      expect(response.json().message).toBe('User not found');
      const written = await note(owner, id, { body: 'anyone?' });
      expect(written.statusCode, id).toBe(404);
      expect(written.json().message).toBe('User not found');
      for (const section of ['transactions', 'payouts', 'notes']) {
        const more = await as(t.app, owner, {
          method: 'GET',
          url: `/api/admin/users/${id}/${section}`,
        });
        expect(more.statusCode, `${section} ${id}`).toBe(404);
      }
    }
  });

  it('shows a suspension and its reason in standing', async () => {
    const customer = await signUp(t.app);
    const support = await signInAs(t, 'support');
    const suspended = await as(t.app, support, {
      method: 'POST',
      url: `/api/admin/users/${customer.user.id}/suspend`,
      payload: { reason: 'Chargebacks', note: 'Three in a week' },
    });
    expect(suspended.statusCode).toBe(200);
    const body = (await page(support, customer.user.id)).json() as CustomerPage;
    expect(body.standing).toMatchObject({
      standing: 'suspended',
      reason: 'Chargebacks',
      note: 'Three in a week',
    });
    expect(body.standing.changedAt).not.toBeNull();
    expect(body.standing.history.map((h) => h.action)).toEqual(['suspend']);
    expect(body.standing.history[0]!.actorEmail).toBe(support.user.email);
  });

  it('pages the customer’s cards with its cursor', async () => {
    const customer = await signUp(t.app);
    const method = await addPaymentMethod(t.app, customer);
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) {
      const card = await submitCard(t.app, customer, {
        paymentMethodId: method.id,
        cardValue: '30',
      });
      expect(card.statusCode).toBe(201);
      ids.push(card.json().id);
    }
    const owner = await signInAs(t, 'owner');
    const body = (await page(owner, customer.user.id)).json() as CustomerPage;
    expect(body.transactions.items).toHaveLength(25);
    expect(body.transactions.nextCursor).not.toBeNull();
    const more = await as(t.app, owner, {
      method: 'GET',
      url: `/api/admin/users/${customer.user.id}/transactions?cursor=${body.transactions.nextCursor}`,
    });
    expect(more.statusCode).toBe(200);
    const rest = more.json() as CustomerPage['transactions'];
    expect(rest.nextCursor).toBeNull();
    expect([...body.transactions.items, ...rest.items].map((c) => c.id)).toEqual(
      [...ids].reverse(),
    );
    const bad = await as(t.app, owner, {
      method: 'GET',
      url: `/api/admin/users/${customer.user.id}/transactions?cursor=nonsense`,
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('GET /api/admin/users/:id/payouts', () => {
  it('lists paid and payable cards only, newest first, a page at a time', async () => {
    const customer = await signUp(t.app);
    const method = await addPaymentMethod(t.app, customer);
    const owner = await signInAs(t, 'owner');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const card = (await submitCard(t.app, customer, { paymentMethodId: method.id })).json();
      expect((await reviewCard(t.app, owner, card.id, { status: 'processing' })).statusCode).toBe(
        200,
      );
      ids.push(card.id);
    }
    // A pending card and a rejected one are no payouts.
    await submitCard(t.app, customer, { paymentMethodId: method.id });
    const rejected = (await submitCard(t.app, customer, { paymentMethodId: method.id })).json();
    expect(
      (
        await reviewCard(t.app, owner, rejected.id, {
          status: 'rejected',
          rejectionReason: 'code_invalid',
        })
      ).statusCode,
    ).toBe(200);
    const first = await as(t.app, owner, {
      method: 'GET',
      url: `/api/admin/users/${customer.user.id}/payouts?limit=2`,
    });
    expect(first.statusCode).toBe(200);
    const one = first.json() as CustomerPage['payouts'];
    expect(one.items.map((p) => p.id)).toEqual([ids[2], ids[1]]);
    const second = await as(t.app, owner, {
      method: 'GET',
      url: `/api/admin/users/${customer.user.id}/payouts?limit=2&cursor=${one.nextCursor}`,
    });
    const two = second.json() as CustomerPage['payouts'];
    expect(two.items.map((p) => p.id)).toEqual([ids[0]]);
    expect(two.nextCursor).toBeNull();
    expect(two.items[0]).toMatchObject({ paymentStatus: 'pending', paymentMethodType: 'paypal' });
  });
});

describe('POST /api/admin/users/:id/notes (decision 144)', () => {
  it('keeps a note, audited, and lists notes newest first', async () => {
    const customer = await signUp(t.app);
    const reviewer = await signInAs(t, 'reviewer');
    const firstNote = await note(reviewer, customer.user.id, { body: '  Asked for ID twice  ' });
    expect(firstNote.statusCode).toBe(201);
    expect(firstNote.json()).toMatchObject({
      body: 'Asked for ID twice',
      authorId: reviewer.user.id,
    });
    const secondNote = await note(reviewer, customer.user.id, { body: 'Sent it' });
    expect(secondNote.statusCode).toBe(201);
    const body = (await page(reviewer, customer.user.id)).json() as CustomerPage;
    expect(body.notes.items.map((n) => n.body)).toEqual(['Sent it', 'Asked for ID twice']);
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, customer.user.id), eq(auditLog.action, 'note')));
    expect(audits).toHaveLength(2);
    expect(audits.map((a) => a.actorEmail)).toEqual([reviewer.user.email, reviewer.user.email]);
    // The audit names the note, not its words: an erased account leaves no note behind.
    expect(JSON.stringify(audits)).not.toContain('Asked for ID twice');
  });

  it('refuses an empty, blank, missing or too long note with 400 and a message, writing nothing', async () => {
    const customer = await signUp(t.app);
    const owner = await signInAs(t, 'owner');
    const cases: [unknown, string][] = [
      [{ body: '' }, 'Note is required'],
      [{ body: '   ' }, 'Note is required'],
      [{}, 'Note is required'],
      [{ body: 42 }, 'Note is required'],
      [{ body: 'x'.repeat(CUSTOMER_NOTE_MAX_LENGTH + 1) }, 'Note must be at most 2,000 characters'],
    ];
    for (const [payload, message] of cases) {
      const response = await note(owner, customer.user.id, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
      expect(JSON.stringify(response.json())).toContain(message);
    }
    const longest = await note(owner, customer.user.id, {
      body: 'y'.repeat(CUSTOMER_NOTE_MAX_LENGTH),
    });
    expect(longest.statusCode).toBe(201);
    expect(
      await t.database.db.$count(customerNotes, eq(customerNotes.userId, customer.user.id)),
    ).toBe(1);
  });

  it('keeps every note written at once', async () => {
    const customer = await signUp(t.app);
    const [owner, support] = await Promise.all([signInAs(t, 'owner'), signInAs(t, 'support')]);
    const bodies = Array.from({ length: 12 }, (_, i) => `note ${i}`);
    const responses = await Promise.all(
      bodies.map((body, i) => note(i % 2 ? support : owner, customer.user.id, { body })),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(bodies.map(() => 201));
    const body = (await page(owner, customer.user.id)).json() as CustomerPage;
    expect(body.notes.items.map((n) => n.body).sort()).toEqual([...bodies].sort());
    // Newest first, by the time each was written.
    const times = body.notes.items.map((n) => n.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    // Paged five at a time, each note comes once, in the same order.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await as(t.app, owner, {
        method: 'GET',
        url: `/api/admin/users/${customer.user.id}/notes?limit=5${cursor ? `&cursor=${cursor}` : ''}`,
      });
      expect(response.statusCode).toBe(200);
      const next = response.json() as CustomerPage['notes'];
      paged.push(...next.items.map((n) => n.id));
      cursor = next.nextCursor;
    } while (cursor);
    expect(paged).toEqual(body.notes.items.map((n) => n.id));
  });

  it('is never shown to the customer, but is in their data export, and goes with their erasure', async () => {
    const customer = await signUp(t.app);
    const owner = await signInAs(t, 'owner');
    expect((await note(owner, customer.user.id, { body: 'Private to staff' })).statusCode).toBe(
      201,
    );
    for (const url of ['/api/auth/user', '/api/notifications', '/api/transactions']) {
      const response = await as(t.app, customer, { method: 'GET', url });
      expect(response.body, url).not.toContain('Private to staff');
    }
    const erased = await as(t.app, owner, {
      method: 'POST',
      url: `/api/admin/users/${customer.user.id}/erase`,
      payload: {},
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(
      await t.database.db.$count(customerNotes, eq(customerNotes.userId, customer.user.id)),
    ).toBe(0);
  });
});
