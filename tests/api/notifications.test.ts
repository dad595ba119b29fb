import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sendDueNotificationEmails } from '../../src/server/common/notify';
import { mailOutbox } from '../../src/server/db/schema';
import { MAX_ATTEMPTS } from '../../src/server/mail/queue';
import { setUpAppWithStaff, withTestApp } from './builders';
import { as, reviewCard, type SignedIn, signUp, submitCard, uniqueEmail } from './helpers';
import { setUpMailServer } from './mail-server';

const DELAY_MS = 60_000;
const mail = setUpMailServer({
  user: 'cardbridge',
  pass: 'smtp secret',
  notificationDelayMs: DELAY_MS,
});
const { t, staff } = setUpAppWithStaff(() => mail.appConfig());

const notificationsOf = (who: SignedIn) =>
  as(t.app, who, { method: 'GET', url: '/api/notifications' });

async function customerWithCard() {
  const email = uniqueEmail();
  const customer = await signUp(t.app, { email });
  const card = (await submitCard(t.app, customer)).json();
  return { email, customer, card };
}

const review = (id: string, payload: object) => reviewCard(t.app, staff, id, payload);

/** Past the minute the emails wait, and the job that sends them. */
async function minuteLater() {
  t.advance(DELAY_MS + 1000);
  await sendDueNotificationEmails(t.app);
  await t.app.mail.deliverDue();
}

describe('notifications', () => {
  it('tells the customer of a staff decision in the app, and several changes in a minute make one email', async () => {
    const { email, customer, card } = await customerWithCard();
    expect((await notificationsOf(customer)).json()).toEqual({ items: [], unreadCount: 0 });

    await review(card.id, { status: 'processing' });
    await review(card.id, { status: 'completed', paymentStatus: 'sent', paymentAmount: '91.00' });
    // A note alone is not a decision: no notification.
    await review(card.id, { adminNotes: 'Checked twice' });

    const list = (await notificationsOf(customer)).json();
    expect(list.unreadCount).toBe(2);
    expect(list.items.map((n: { title: string }) => n.title)).toEqual([
      'Amazon card of $100.00: Completed',
      'Amazon card of $100.00: Processing',
    ]);
    expect(list.items[0]).toMatchObject({
      kind: 'transaction',
      body: 'Status: Completed. Payment: Payment Sent. Payment amount: $91.00.',
      // The card itself: History with its detail open (issue 24).
      link: `/history?card=${card.id}`,
      read: false,
    });

    // Nothing is mailed before the minute is up...
    await sendDueNotificationEmails(t.app);
    await t.app.mail.deliverDue();
    expect(mail.to(email).filter((m) => /Amazon|updates/.test(m.subject))).toEqual([]);
    // ...then one email with both changes and links to the page.
    await minuteLater();
    const digest = await mail.waitFor(email, /2 updates on your account/);
    expect(digest.text).toContain('Amazon card of $100.00: Processing');
    expect(digest.text).toContain(
      'Status: Completed. Payment: Payment Sent. Payment amount: $91.00.',
    );
    expect(digest.text).toContain(`http://cardbridge.test/history?card=${card.id}`);
    expect(digest.html).toContain(`href="http://cardbridge.test/history?card=${card.id}"`);
    expect(mail.to(email).filter((m) => /updates|Amazon/.test(m.subject))).toHaveLength(1);
  });

  it('marks notifications read, only the customer’s own', async () => {
    const { customer, card } = await customerWithCard();
    const other = await customerWithCard();
    await review(card.id, { status: 'rejected', rejectionReason: 'already_redeemed' });
    await review(other.card.id, { status: 'rejected', rejectionReason: 'already_redeemed' });
    const [mine] = (await notificationsOf(customer)).json().items;
    const [theirs] = (await notificationsOf(other.customer)).json().items;

    const read = await as(t.app, customer, {
      method: 'POST',
      url: '/api/notifications/read',
      payload: { ids: [mine.id, theirs.id] },
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().unreadCount).toBe(0);
    expect(read.json().items[0].read).toBe(true);
    expect((await notificationsOf(other.customer)).json().unreadCount).toBe(1);

    const bad = await as(t.app, customer, {
      method: 'POST',
      url: '/api/notifications/read',
      payload: { ids: ['nope'] },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('tells of a staff chat reply and a ticket status, and sends no email when switched off', async () => {
    const email = uniqueEmail();
    const customer = await signUp(t.app, { email });
    await as(t.app, customer, {
      method: 'PATCH',
      url: '/api/profile',
      payload: { emailNotifications: false },
    });
    await as(t.app, staff, {
      method: 'POST',
      url: '/api/chat/messages',
      payload: { message: 'Your card is fine', userId: customer.user.id },
    });
    const ticket = (
      await as(t.app, customer, {
        method: 'POST',
        url: '/api/support-tickets',
        payload: { email, subject: 'Payout', message: 'When?' },
      })
    ).json();
    await as(t.app, staff, {
      method: 'PATCH',
      url: `/api/admin/support-tickets/${ticket.id}`,
      payload: { status: 'resolved' },
    });
    const titles = (await notificationsOf(customer))
      .json()
      .items.map((n: { title: string; link: string }) => `${n.title} -> ${n.link}`);
    expect(titles).toEqual([
      'Ticket “Payout”: Resolved -> /support',
      'Support replied to you -> /chat',
    ]);
    await minuteLater();
    expect(mail.to(email).filter((m) => !/Confirm/.test(m.subject))).toEqual([]);
  });

  it('staff and anonymous callers have none', async () => {
    expect((await notificationsOf(staff)).json()).toEqual({ items: [], unreadCount: 0 });
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
  });
});

describe('the mail queue', () => {
  it('never fails the request when delivery fails, and retries later', async () => {
    mail.refuse(true);
    const email = uniqueEmail();
    try {
      const signup = await signUp(t.app, { email });
      expect(signup.user.email).toBe(email);
      await t.app.mail.deliverDue();
      const [row] = await t.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, email));
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row!.lastError).toMatch(/451|Mailbox unavailable/);
      expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(t.now() + 50_000);
    } finally {
      mail.refuse(false);
    }
    t.advance(61_000);
    await t.app.mail.deliverDue();
    const delivered = await mail.waitFor(email, /Confirm/);
    expect(delivered.link).toMatch(/verify-email\?token=/);
    const [row] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, email));
    // Sent: kept for the record, without the bodies (they held the link).
    expect(row).toMatchObject({ status: 'sent', attempts: 2, textBody: '', htmlBody: '' });
  });

  it('gives a message up after the last try', async () => {
    mail.refuse(true);
    const email = uniqueEmail();
    try {
      await signUp(t.app, { email });
      for (let i = 0; i < MAX_ATTEMPTS; i++) {
        await t.app.mail.deliverDue();
        t.advance(13 * 60 * 60 * 1000);
      }
      const [row] = await t.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, email));
      expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, textBody: '' });
    } finally {
      mail.refuse(false);
    }
  });
});

describe('without SMTP_URL', () => {
  it('writes each message as an .eml file under DATA_DIR/outbox', async () => {
    await withTestApp(async (local) => {
      const email = uniqueEmail();
      await signUp(local.app, { email });
      await local.app.mail.deliverDue();
      const dir = path.join(local.config.dataDir, 'outbox');
      const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
      expect(files).toHaveLength(1);
      const eml = readFileSync(path.join(dir, files[0]!), 'utf8');
      expect(eml).toContain(`To: ${email}`);
      expect(eml).toMatch(/Subject: Confirm your email address/);
      expect(eml).toContain('multipart/alternative');
    });
  });
});
