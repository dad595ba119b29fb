import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema';
import { setUpAppWithMail } from './builders';
import {
  addPaymentMethod,
  as,
  reviewCard,
  type SignedIn,
  signUp,
  submitCard,
  uniqueEmail,
} from './helpers';

const { mail, t, staff } = setUpAppWithMail();
const PASSWORD = 'correct horse battery';

const standing = (id: string, action: string, payload?: object, who: SignedIn = staff) =>
  as(t.app, who, {
    method: 'POST',
    url: `/api/admin/users/${id}/${action}`,
    ...(payload ? { payload } : {}),
  });

const card = (who: SignedIn, methodId: string) =>
  submitCard(t.app, who, { paymentMethodId: methodId });

const review = (id: string, payload: object) => reviewCard(t.app, staff, id, payload);

const userOf = async (who: SignedIn) =>
  (await as(t.app, who, { method: 'GET', url: '/api/auth/user' })).json();
/** The audit rows of the customer's suspensions. */
const suspensionsOf = (who: SignedIn) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entityType, 'user'),
        eq(auditLog.entityId, who.user.id),
        eq(auditLog.action, 'suspend'),
      ),
    );

describe('account standing', () => {
  it('suspension refuses cards and payment methods but not chat or tickets; reinstating lifts it', async () => {
    const email = uniqueEmail();
    const who = await signUp(t.app, { email });
    const method = await addPaymentMethod(t.app, who);
    const suspended = await standing(who.user.id, 'suspend', {
      reason: 'Cards reported stolen',
      note: 'Bank called on 24 Nov',
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json()).toMatchObject({
      standing: 'suspended',
      standingReason: 'Cards reported stolen',
    });
    // The same session learns it at once.
    expect(await userOf(who)).toMatchObject({ standing: 'suspended' });

    const refusedCard = await card(who, method.id);
    expect(refusedCard.statusCode).toBe(403);
    expect(refusedCard.json().code).toBe('account_suspended');
    const refusedMethod = await as(t.app, who, {
      method: 'POST',
      url: '/api/payment-methods',
      payload: { type: 'paypal', accountName: 'Casey', identifier: 'c@example.com' },
    });
    expect(refusedMethod.statusCode).toBe(403);
    expect(refusedMethod.json().code).toBe('account_suspended');

    const chat = await as(t.app, who, {
      method: 'POST',
      url: '/api/chat/messages',
      payload: { message: 'Why was I suspended?' },
    });
    expect(chat.statusCode).toBeLessThan(300);
    const ticket = await as(t.app, who, {
      method: 'POST',
      url: '/api/support-tickets',
      payload: { email, subject: 'Appeal', message: 'Please look again' },
    });
    expect(ticket.statusCode).toBeLessThan(300);
    expect((await as(t.app, who, { method: 'GET', url: '/api/transactions' })).statusCode).toBe(
      200,
    );

    await t.app.mail.deliverDue();
    const message = await mail.waitFor(email, /was suspended/);
    expect(message.text).toMatch(/Cards reported stolen/);

    expect((await standing(who.user.id, 'suspend', { reason: 'again' })).statusCode).toBe(409);
    const reinstated = await standing(who.user.id, 'reinstate');
    expect(reinstated.statusCode).toBe(200);
    expect(reinstated.json()).toMatchObject({ standing: 'active', standingReason: null });
    expect((await card(who, method.id)).statusCode).toBe(201);
    await t.app.mail.deliverDue();
    await mail.waitFor(email, /active again/);

    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'user'), eq(auditLog.entityId, who.user.id)));
    expect(audit.map((a) => a.action).sort()).toEqual(['reinstate', 'suspend']);
  });

  it('holds a suspended customer’s approved cards back from payment', async () => {
    const who = await signUp(t.app);
    const method = await addPaymentMethod(t.app, who);
    const id = (await card(who, method.id)).json().id;
    await review(id, { status: 'processing' });
    await standing(who.user.id, 'suspend', { reason: 'Review' });
    const pay = await review(id, { paymentStatus: 'sent' });
    expect(pay.statusCode).toBe(409);
    expect(pay.json().code).toBe('account_suspended');
    const payouts = (await as(t.app, staff, { method: 'GET', url: '/api/admin/payouts' })).json();
    expect(payouts.held.find((h: { id: string }) => h.id === id).reason).toBe('account_suspended');
  });

  it('closing ends every session, refuses sign-in, rejects pending cards and keeps owed ones payable', async () => {
    const email = uniqueEmail();
    const who = await signUp(t.app, { email, password: PASSWORD });
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/signin',
      payload: { email, password: PASSWORD },
    });
    expect(second.statusCode).toBe(200);
    const method = await addPaymentMethod(t.app, who);
    const owed = (await card(who, method.id)).json().id;
    await review(owed, { status: 'processing' });
    const pending = (await card(who, method.id)).json().id;

    const closed = await standing(who.user.id, 'close', { reason: 'Asked to leave' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().standing).toBe('closed');

    expect((await as(t.app, who, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    const secondCookie = second.cookies.find((c) => c.name === 'cb.sid')!;
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { cookie: `cb.sid=${secondCookie.value}` },
    });
    expect(other.statusCode).toBe(401);
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/signin',
      payload: { email, password: PASSWORD },
    });
    expect(signin.statusCode).toBe(403);
    expect(signin.json()).toMatchObject({ code: 'account_closed' });
    expect(signin.json().message).toMatch(/closed/);

    const pendingCard = (
      await as(t.app, staff, { method: 'GET', url: `/api/admin/transactions/${pending}` })
    ).json();
    expect(pendingCard).toMatchObject({
      status: 'rejected',
      rejectionReason: 'other',
      rejectionNote: 'Account closed',
    });
    const paid = await review(owed, { paymentStatus: 'sent' });
    expect(paid.statusCode, paid.body).toBe(200);
    await t.app.mail.deliverDue();
    await mail.waitFor(email, /was closed/);
  });

  it('suspends automatically on the third fraud-like rejection in 30 days, naming the rule, and tells staff', async () => {
    const who = await signUp(t.app);
    const method = await addPaymentMethod(t.app, who);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await card(who, method.id)).json().id);
    // A rejection of another kind does not count.
    await review(ids[0]!, { status: 'rejected', rejectionReason: 'image_unreadable' });
    await review(ids[1]!, { status: 'rejected', rejectionReason: 'code_invalid' });
    await review(ids[2]!, { status: 'rejected', rejectionReason: 'already_redeemed' });
    expect((await userOf(who)).standing).toBe('active');
    const third = await review(ids[3]!, { status: 'rejected', rejectionReason: 'suspected_fraud' });
    expect(third.statusCode).toBe(200);
    expect((await userOf(who)).standing).toBe('suspended');
    const [audit] = await suspensionsOf(who);
    expect(audit!.changes).toMatchObject({
      standing: { from: 'active', to: 'suspended' },
      rule: { to: 'three_fraud_rejections_in_30_days' },
      rejections: { to: 3 },
    });
    await t.app.mail.deliverDue();
    const alert = await mail.waitFor(staff.user.email, /suspended automatically/);
    expect(alert.text).toContain(who.user.email);
  });

  it('takes rejections of one customer’s cards sent all at once, and suspends once', async () => {
    const who = await signUp(t.app);
    const method = await addPaymentMethod(t.app, who);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await card(who, method.id)).json().id);
    // Each rejection notifies the customer (a row that points at the account) and then locks the
    // account to count; on PostgreSQL two of them once deadlocked there and one answered 409.
    const answers = await Promise.all(
      ids.map((id) => review(id, { status: 'rejected', rejectionReason: 'code_invalid' })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect((await userOf(who)).standing).toBe('suspended');
    const suspensions = await suspensionsOf(who);
    expect(suspensions).toHaveLength(1);
  });

  it('checks the reason, and is for staff only', async () => {
    const who = await signUp(t.app);
    expect((await standing(who.user.id, 'suspend', { reason: '' })).statusCode).toBe(400);
    expect((await standing(who.user.id, 'close', { reason: 'x'.repeat(501) })).statusCode).toBe(
      400,
    );
    expect((await standing(who.user.id, 'close', {})).statusCode).toBe(400);
    expect((await standing(who.user.id, 'reinstate')).statusCode).toBe(409);
    expect((await standing('not-a-uuid', 'suspend', { reason: 'x' })).statusCode).toBe(404);
    expect(
      (await standing('00000000-0000-4000-8000-000000000000', 'suspend', { reason: 'x' }))
        .statusCode,
    ).toBe(404);
    expect((await standing(who.user.id, 'suspend', { reason: 'x' }, who)).statusCode).toBe(403);
  });
});
