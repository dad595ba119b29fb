import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sendDueNotificationEmails } from '../../src/server/common/notify';
import { mailOutbox, transactions } from '../../src/server/db/schema';
import { unsubscribeToken } from '../../src/server/mail/unsubscribe';
import { sendWeeklyDigests } from '../../src/server/modules/notifications/digests';
import { BRAND_GREEN, BRAND_GREEN_DARK } from '../../src/shared/brand';
import { setUpAppWithMail } from './builders';
import { as, reviewCard, type SignedIn, signUp, submitCard, uniqueEmail } from './helpers';
import { type ReceivedMail, TEST_APP_URL } from './mail-server';

const { mail, t, staff } = setUpAppWithMail();

const preferencesOf = (who: SignedIn | undefined) =>
  as(t.app, who, { method: 'GET', url: '/api/account/email-preferences' });
const setPreferences = (who: SignedIn | undefined, payload: object) =>
  as(t.app, who, { method: 'PUT', url: '/api/account/email-preferences', payload });

/** A staff decision on the customer's card, and the email it makes once it is sent. */
async function staffDecision(card: { id: string }, status: string) {
  const review = await reviewCard(t.app, staff, card.id, { status });
  expect(review.statusCode).toBe(200);
  await sendDueNotificationEmails(t.app);
  await t.app.mail.deliverDue();
}

/** What the outbox still has to send: nothing once every queued message has been delivered. */
const pendingMail = () =>
  t.app.db
    .select({ to: mailOutbox.toAddress, subject: mailOutbox.subject })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'pending'));

const header = (message: ReceivedMail, name: string) =>
  message.raw.headerLines
    .find((h) => h.key === name.toLowerCase())
    ?.line.slice(name.length + 1)
    .trim();

describe('email preferences', () => {
  it('answers and takes { statusUpdates, digests } for the signed-in customer', async () => {
    const customer = await signUp(t.app);
    const initial = await preferencesOf(customer);
    expect(initial.statusCode).toBe(200);
    expect(initial.json()).toEqual({ statusUpdates: true, digests: true });

    const put = await setPreferences(customer, { statusUpdates: false, digests: true });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ statusUpdates: false, digests: true });
    expect((await preferencesOf(customer)).json()).toEqual({ statusUpdates: false, digests: true });
    // Profile's current-user object says the same.
    const me = await as(t.app, customer, { method: 'GET', url: '/api/auth/user' });
    expect(me.json().emailNotifications).toBe(false);

    const partial = await setPreferences(customer, { statusUpdates: 'no' });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().errors).toMatchObject({
      statusUpdates: 'statusUpdates must be true or false',
      digests: 'digests must be true or false',
    });
    expect((await preferencesOf(undefined)).statusCode).toBe(401);
    expect(
      (await setPreferences(undefined, { statusUpdates: true, digests: true })).statusCode,
    ).toBe(401);
    expect((await preferencesOf(staff)).statusCode).toBe(403);
  });

  it('puts a one-click unsubscribe on status emails that works signed out and stops that kind only', async () => {
    const email = uniqueEmail();
    const customer = await signUp(t.app, { email });
    const card = (await submitCard(t.app, customer)).json();

    await staffDecision(card, 'processing');
    const update = await mail.waitFor(email, /Amazon card/);
    // RFC 8058: the link in a header, and the one-click POST announced.
    const listUnsubscribe = header(update, 'List-Unsubscribe');
    expect(listUnsubscribe).toMatch(
      new RegExp(
        `^<${TEST_APP_URL}/api/unsubscribe\\?token=[0-9a-f-]{36}\\.statusUpdates\\.[\\w-]{43}>$`,
      ),
    );
    expect(header(update, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const link = listUnsubscribe!.slice(1, -1);
    // The same signed link in the text and the HTML.
    expect(update.text).toContain(link);
    expect(update.html).toContain(link);
    // In the app's green (issue 43, 23), not another palette's blue.
    expect(update.html).toContain(`style="color:${BRAND_GREEN}"`);
    expect(update.html).not.toMatch(/#2563eb/i);
    const url = link.slice(TEST_APP_URL.length);

    // Opening the link (signed out) shows a page asking for the click, and changes nothing yet.
    const page = await t.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Unsubscribe from status updates?');
    expect(page.body).toContain('method="post"');
    // Styled like the app, light and dark as the system is set.
    expect(page.body).toContain(`--accent:${BRAND_GREEN}`);
    expect(page.body).toContain(
      `@media (prefers-color-scheme:dark){:root{--bg:#0b1120;--card:#111827;--text:#f9fafb;--muted:#9ca3af;--accent:${BRAND_GREEN_DARK}`,
    );
    expect((await preferencesOf(customer)).json()).toEqual({ statusUpdates: true, digests: true });

    // The mail program's one-click POST: from its own server, no cookie, a form body.
    const oneClick = await t.app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://mail.example.net',
      },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.json()).toEqual({
      unsubscribed: true,
      kind: 'statusUpdates',
      message: 'You are unsubscribed from these emails.',
    });
    expect((await preferencesOf(customer)).json()).toEqual({ statusUpdates: false, digests: true });
    // Again: still fine.
    expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(200);

    // The next decision: in the app, but no email.
    const before = mail.to(email).length;
    await staffDecision(card, 'completed');
    const notices = (
      await as(t.app, customer, { method: 'GET', url: '/api/notifications' })
    ).json();
    expect(notices.items[0].title).toContain('Completed');

    // Transactional email still goes out; queued after the decision, it is the only mail since.
    await t.app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    await mail.waitFor(email, /Reset your Cardbridge password/);
    expect(mail.to(email).slice(before)).toEqual([
      expect.objectContaining({ subject: expect.stringMatching(/Reset your Cardbridge password/) }),
    ]);
  });

  it('sends the weekly digest to customers whose cards moved, each with its own one-click unsubscribe', async () => {
    const seller = await signUp(t.app);
    const waiting = (await submitCard(t.app, seller)).json();
    const paid = (await submitCard(t.app, seller)).json();
    const review = await reviewCard(t.app, staff, paid.id, {
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '91',
    });
    expect(review.statusCode).toBe(200);
    // Digests off: nothing, though a card moved.
    const optedOut = await signUp(t.app);
    await setPreferences(optedOut, { statusUpdates: true, digests: false });
    await submitCard(t.app, optedOut);
    // Nothing new in the week: a card submitted 10 days ago and still waiting.
    const quiet = await signUp(t.app);
    const old = (await submitCard(t.app, quiet)).json();
    await t.app.db
      .update(transactions)
      .set({ createdAt: new Date(t.now() - 10 * 24 * 60 * 60 * 1000) })
      .where(eq(transactions.id, old.id));

    expect(await sendWeeklyDigests(t.app)).toBeGreaterThanOrEqual(1);
    await t.app.mail.deliverDue();
    const digest = await mail.waitFor(seller.user.email, /your week/);
    expect(digest.subject).toBe('Cardbridge: your week');
    expect(digest.text).toContain('Cards submitted: 2');
    expect(digest.text).toContain('Paid to you: $91.00 (1 card)');
    expect(digest.text).toContain('Still under review: 1');
    expect(waiting.status).toBe('pending');
    const listUnsubscribe = header(digest, 'List-Unsubscribe')!;
    expect(listUnsubscribe).toMatch(/\.digests\.[\w-]{43}>$/);
    expect(header(digest, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(await pendingMail()).toEqual([]);
    for (const other of [optedOut, quiet]) {
      expect(mail.to(other.user.email).filter((m) => /your week/.test(m.subject))).toEqual([]);
    }

    // The digest's link turns digests off, and status emails stay on.
    const url = listUnsubscribe.slice(1, -1).slice(TEST_APP_URL.length);
    expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(200);
    expect((await preferencesOf(seller)).json()).toEqual({ statusUpdates: true, digests: false });
    await sendWeeklyDigests(t.app);
    await t.app.mail.deliverDue();
    expect(await pendingMail()).toEqual([]);
    expect(mail.to(seller.user.email).filter((m) => /your week/.test(m.subject))).toHaveLength(1);
  });

  it('takes a digests link posted as multipart/form-data, as some mail programs send it', async () => {
    const customer = await signUp(t.app);
    const token = unsubscribeToken(t.config.sessionSecret, customer.user.id, 'digests');
    const boundary = '----one-click';
    const posted = await t.app.inject({
      method: 'POST',
      url: `/api/unsubscribe?token=${token}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(posted.statusCode).toBe(200);
    expect(posted.json()).toMatchObject({ unsubscribed: true, kind: 'digests' });
    expect((await preferencesOf(customer)).json()).toEqual({ statusUpdates: true, digests: false });
  });

  it('refuses a link that was altered, or names another kind, and turns nothing off', async () => {
    const customer = await signUp(t.app);
    const card = (await submitCard(t.app, customer)).json();
    await staffDecision(card, 'processing');
    const link = header(await mail.waitFor(customer.user.email, /Amazon card/), 'List-Unsubscribe')!
      .slice(1, -1)
      .slice(TEST_APP_URL.length);
    const token = new URL(link, TEST_APP_URL).searchParams.get('token')!;
    const [id, , signature] = token.split('.');
    /** The text with its last character changed to another. */
    const altered = (text: string, to: string) =>
      `${text.slice(0, -1)}${text.endsWith(to[0]!) ? to[1] : to[0]}`;
    const forged = [
      `${id}.digests.${signature}`,
      `${id}.statusUpdates.${altered(signature!, 'AB')}`,
      `${altered(id!, '01')}.statusUpdates.${signature}`,
      'not-a-token',
    ];
    for (const bad of forged) {
      const post = await t.app.inject({
        method: 'POST',
        url: `/api/unsubscribe?token=${encodeURIComponent(bad)}`,
      });
      expect(post.statusCode).toBe(400);
      expect(post.json().message).toBe(
        'This unsubscribe link is not valid. Sign in and choose your emails in Profile.',
      );
      const page = await t.app.inject({
        method: 'GET',
        url: `/api/unsubscribe?token=${encodeURIComponent(bad)}`,
        headers: { accept: 'text/html' },
      });
      expect(page.statusCode).toBe(400);
      expect(page.body).toContain('This unsubscribe link is not valid');
      // Anything but a browser gets the JSON error every route answers.
      const json = await t.app.inject({
        method: 'GET',
        url: `/api/unsubscribe?token=${encodeURIComponent(bad)}`,
      });
      expect(json.statusCode).toBe(400);
      expect(json.json().message).toMatch(/^This unsubscribe link is not valid/);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/unsubscribe' })).statusCode).toBe(400);
    expect((await preferencesOf(customer)).json()).toEqual({ statusUpdates: true, digests: true });

    // The page's own button (a browser form) gets a page back.
    const button = await t.app.inject({
      method: 'POST',
      url: link,
      headers: {
        accept: 'text/html,application/xhtml+xml',
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://localhost:80',
      },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(button.statusCode).toBe(200);
    expect(button.body).toContain('You are unsubscribed from status updates');
    expect((await preferencesOf(customer)).json()).toEqual({ statusUpdates: false, digests: true });
  });
});
