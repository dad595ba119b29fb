import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sendDueNotificationEmails } from '../../src/server/common/notify';
import { auditLog, transactions } from '../../src/server/db/schema';
import { setUpAppWithStaff } from './builders';
import { as, reviewCard, type SignedIn, signUp, submitCard, uniqueEmail } from './helpers';
import { setUpMailServer } from './mail-server';

const DELAY_MS = 60_000;
const mail = setUpMailServer({ notificationDelayMs: DELAY_MS });
const { t, staff } = setUpAppWithStaff(() => mail.appConfig());

const get = (who: SignedIn, url: string) => as(t.app, who, { method: 'GET', url });
const patch = (id: string, payload: object) => reviewCard(t.app, staff, id, payload);
const auditOf = (id: string) =>
  t.database.db.select().from(auditLog).where(eq(auditLog.entityId, id));
const rowOf = async (id: string) =>
  (await t.database.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;

async function customerWithCard() {
  const email = uniqueEmail();
  const customer = await signUp(t.app, { email });
  const card = (await submitCard(t.app, customer)).json() as { id: string };
  return { email, customer, card };
}

describe('rejecting a card', () => {
  it('refuses status rejected without a reason, naming the field, and writes nothing', async () => {
    const { customer, card } = await customerWithCard();
    for (const payload of [
      { status: 'rejected' },
      { status: 'rejected', rejectionReason: null },
      { status: 'rejected', rejectionReason: '' },
    ]) {
      const response = await patch(card.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const body = response.json();
      if (payload.rejectionReason === '') {
        expect(body.errors.rejectionReason).toMatch(/^Rejection reason must be one of: /);
      } else {
        expect(body).toEqual({
          message: 'Rejection reason is required when the status is Rejected',
          errors: { rejectionReason: 'Rejection reason is required when the status is Rejected' },
        });
      }
    }
    expect((await rowOf(card.id)).status).toBe('pending');
    expect(await auditOf(card.id)).toEqual([]);
    expect((await get(customer, '/api/notifications')).json().items).toEqual([]);
  });

  it('keeps the reason, audits it, and the customer sees it in every answer and the notification', async () => {
    const { customer, card } = await customerWithCard();
    const response = await patch(card.id, { status: 'rejected', rejectionReason: 'code_invalid' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'rejected',
      rejectionReason: 'code_invalid',
      rejectionReasonLabel: 'Code invalid',
      rejectionNote: null,
    });
    const [audit] = await auditOf(card.id);
    expect(audit!.changes).toEqual({
      status: { from: 'pending', to: 'rejected' },
      rejectionReason: { from: null, to: 'code_invalid' },
    });
    for (const url of ['/api/transactions', '/api/transactions/recent']) {
      const [mine] = (await get(customer, url)).json();
      expect(mine, url).toMatchObject({
        id: card.id,
        status: 'rejected',
        rejectionReason: 'code_invalid',
        rejectionReasonLabel: 'Code invalid',
        rejectionNote: null,
      });
    }
    const [notice] = (await get(customer, '/api/notifications')).json().items;
    expect(notice).toMatchObject({
      title: 'Amazon card of $100.00: Rejected',
      body: 'Status: Rejected. Reason: Code invalid.',
    });
  });

  it('needs a note for Other, shows that note, and says it in the email', async () => {
    const { email, customer, card } = await customerWithCard();
    const missing = await patch(card.id, { status: 'rejected', rejectionReason: 'other' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({
      rejectionNote: 'Rejection note is required when the reason is Other',
    });
    const blank = await patch(card.id, {
      status: 'rejected',
      rejectionReason: 'other',
      rejectionNote: '   ',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toEqual({
      rejectionNote: 'Rejection note is required when the reason is Other',
    });
    const tooLong = await patch(card.id, {
      status: 'rejected',
      rejectionReason: 'other',
      rejectionNote: 'x'.repeat(501),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors.rejectionNote).toBe(
      'Rejection note must be at most 500 characters',
    );
    expect((await rowOf(card.id)).status).toBe('pending');

    const note = 'The card is for another country\nand cannot be used here';
    const saved = await patch(card.id, {
      status: 'rejected',
      rejectionReason: 'other',
      rejectionNote: `  ${note}  `,
    });
    expect(saved.statusCode).toBe(200);
    const [mine] = (await get(customer, '/api/transactions')).json();
    expect(mine).toMatchObject({
      rejectionReason: 'other',
      rejectionReasonLabel: 'Other',
      rejectionNote: note,
    });
    const [notice] = (await get(customer, '/api/notifications')).json().items;
    expect(notice.body).toBe(`Status: Rejected. Reason: ${note}.`);

    t.advance(DELAY_MS + 1000);
    await sendDueNotificationEmails(t.app);
    await t.app.mail.deliverDue();
    const message = await mail.waitFor(email, /Rejected/);
    expect(message.text).toContain('Reason: The card is for another country');
  });

  it('refuses a note with a reason other than Other, and a reason without status rejected', async () => {
    const { card } = await customerWithCard();
    const noteWithReason = await patch(card.id, {
      status: 'rejected',
      rejectionReason: 'balance_differs',
      rejectionNote: 'Balance was $20',
    });
    expect(noteWithReason.statusCode).toBe(400);
    expect(noteWithReason.json().errors.rejectionNote).toBe(
      'A rejection note goes with the reason Other only',
    );
    const reasonWithoutStatus = await patch(card.id, {
      status: 'processing',
      rejectionReason: 'suspected_fraud',
    });
    expect(reasonWithoutStatus.statusCode).toBe(400);
    expect(reasonWithoutStatus.json().errors.rejectionReason).toBe(
      'A rejection reason can only be given with the status Rejected',
    );
    const unknown = await patch(card.id, { status: 'rejected', rejectionReason: 'ugly' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.rejectionReason).toBe(
      'Rejection reason must be one of: code_invalid, already_redeemed, balance_differs, image_unreadable, suspected_fraud, other',
    );
    expect(await auditOf(card.id)).toEqual([]);
  });

  it('keeps the reason on a later save, tells a changed reason, and clears it when the card leaves rejected', async () => {
    const { customer, card } = await customerWithCard();
    await patch(card.id, {
      status: 'rejected',
      rejectionReason: 'other',
      rejectionNote: 'Blurry photo of the back',
    });
    // Saving again with status rejected and no reason keeps the one on the card.
    const again = await patch(card.id, { status: 'rejected', adminNotes: 'Checked twice' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      rejectionReason: 'other',
      rejectionNote: 'Blurry photo of the back',
    });
    // Another reason: the note of Other goes with it, and the customer is told.
    const changed = await patch(card.id, { rejectionReason: 'image_unreadable' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      rejectionReason: 'image_unreadable',
      rejectionNote: null,
    });
    const [notice] = (await get(customer, '/api/notifications')).json().items;
    expect(notice).toMatchObject({
      title: 'Amazon card of $100.00: Rejection reason updated',
      body: 'Reason: Image unreadable.',
    });

    const reopened = await patch(card.id, { status: 'processing' });
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json()).toMatchObject({
      status: 'processing',
      rejectionReason: null,
      rejectionReasonLabel: null,
      rejectionNote: null,
    });
    const audit = await t.database.db
      .select({ changes: auditLog.changes })
      .from(auditLog)
      .where(eq(auditLog.entityId, card.id))
      .orderBy(sql`${auditLog.createdAt} desc`);
    expect(audit[0]!.changes).toEqual({
      status: { from: 'rejected', to: 'processing' },
      rejectionReason: { from: 'image_unreadable', to: null },
    });
    expect(audit[1]!.changes).toEqual({
      rejectionReason: { from: 'other', to: 'image_unreadable' },
      rejectionNote: { from: 'Blurry photo of the back', to: null },
    });
    const [mine] = (await get(customer, '/api/transactions')).json();
    expect(mine.rejectionReason).toBeNull();
  });

  it('lets staff edit other fields of a card rejected before reasons existed', async () => {
    const { card } = await customerWithCard();
    await t.database.db
      .update(transactions)
      .set({ status: 'rejected' })
      .where(eq(transactions.id, card.id));
    const note = await patch(card.id, { adminNotes: 'Old card, no reason recorded' });
    expect(note.statusCode).toBe(200);
    // Saying the status again is a decision: it needs a reason.
    const restated = await patch(card.id, { status: 'rejected' });
    expect(restated.statusCode).toBe(400);
  });
});
