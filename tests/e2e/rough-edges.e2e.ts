import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { submitCardByApi } from './api-helpers';
import {
  baseURL,
  CUSTOMER_PASSWORD,
  staffContext,
  staffPage,
  staffPageAfterCard,
  test,
  uniqueEmail,
} from './fixtures';
import { findCutOff, isShownWhole } from './layout';

/** One test per defect a new user met (issue 13); each failed before its fix. */

const CARD_IMAGE = path.join(import.meta.dirname, '..', 'fixtures', 'card-front.jpg');
// A real TRC-20 address (34 characters): the server checks its base58check checksum.
const WALLET = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** A customer signed in through the API in a context of its own. */
async function customerPage(
  browser: Browser,
  account: { email: string; firstName: string; lastName: string },
  viewport = { width: 1280, height: 800 },
) {
  const context = await browser.newContext({ baseURL: baseURL(), viewport });
  const page = await context.newPage();
  const response = await page.request.post('/api/signup', {
    data: { ...account, password: CUSTOMER_PASSWORD },
  });
  if (!response.ok()) throw new Error(await response.text());
  return page;
}

async function openReview(page: Page, email: string) {
  await page.getByLabel('Search card type, email or ID').fill(email);
  // A table on wider screens, a list of cards on phones.
  const row = (page.viewportSize()?.width ?? 1280) < 640 ? 'upload-card' : 'upload-row';
  await expect(page.getByTestId(row)).toHaveCount(1);
  await page.getByTestId(row).getByRole('button', { name: 'Review' }).click();
  const dialog = page.getByTestId('review-dialog');
  await expect(dialog.getByTestId('save-review')).toBeVisible();
  return dialog;
}

const isAtBottom = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 4);

async function waitFor(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const emptyFailure = { status: 500, body: '' };
const htmlFailure = {
  status: 502,
  contentType: 'text/html',
  body: '<html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>',
};

describe('rough edges a new user met', () => {
  test('an empty upload names every required field and a low value its minimum at once', async ({
    customer: { page },
  }) => {
    await page.request.post('/api/payment-methods', {
      data: { type: 'paypal', accountName: 'Riley Stone', identifier: 'riley@example.com' },
    });
    await page.goto('/upload');
    const value = page.getByLabel('Card Value (USD)');
    expect((await value.getAttribute('placeholder')) ?? '').not.toMatch(/\d/);
    await page.getByTestId('submit-card').click();
    for (const message of [
      'Card type is required',
      'Card value is required',
      'Card condition is required',
      'Card format is required',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await page.getByLabel('Gift Card Brand').selectOption('Amazon');
    await value.fill('10');
    await page.getByTestId('submit-card').click();
    await expect(page.getByText('Minimum value for this card type is $25')).toBeVisible();
  });

  test("the spec's fallback texts show when the server gives no message, never raw HTML", async ({
    browser,
  }) => {
    // A name of its own: other tests find their conversation in the staff list by name.
    const email = uniqueEmail('fallback');
    const page = await customerPage(browser, { email, firstName: 'Fallback', lastName: 'Tester' });
    await page.request.post('/api/chat/messages', {
      data: { message: 'Hello?', senderType: 'user' },
    });
    await page.request.post('/api/payment-methods', {
      data: { type: 'paypal', accountName: 'Riley Stone', identifier: 'riley@example.com' },
    });
    await page.route('**/api/transactions', (route) =>
      route.request().method() === 'POST' ? route.fulfill(emptyFailure) : route.continue(),
    );
    await page.goto('/upload');
    await page.getByLabel('Gift Card Brand').selectOption('Amazon');
    await page.getByLabel('Card Value (USD)').fill('100');
    await page.getByRole('radio', { name: 'Brand New' }).click();
    await page.getByRole('radio', { name: 'Physical' }).click();
    await page.getByRole('radio', { name: 'No', exact: true }).click();
    await page.getByTestId('card-images-input').setInputFiles(CARD_IMAGE);
    await page.getByTestId('submit-card').click();
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Failed to upload gift card. Please try again.');
    expect(await toast.textContent()).not.toContain('Internal Server Error');

    await page.route('**/api/chat/messages', (route) =>
      route.request().method() === 'POST' ? route.fulfill(htmlFailure) : route.continue(),
    );
    await page.goto('/chat');
    await page.getByRole('textbox', { name: 'Message' }).fill('Are you there?');
    await page.keyboard.press('Enter');
    await expect(toast).toContainText('Failed to send message');
    expect(await toast.textContent()).not.toMatch(/<|Bad Gateway|nginx/);

    const admin = await staffPage(browser);
    await admin.route('**/api/admin/**', (route) =>
      route.request().method() === 'GET' ? route.continue() : route.fulfill(emptyFailure),
    );
    await admin.route('**/api/chat/messages', (route) => route.fulfill(emptyFailure));
    const staffToast = admin.getByTestId('toast');
    await submitCardByApi(page.request);
    const dialog = await openReview(admin, email);
    await dialog.getByTestId('save-review').click();
    await expect(staffToast).toContainText('Failed to update transaction');
    await admin.keyboard.press('Escape');
    await admin.keyboard.press('Escape');
    await expect(admin.getByTestId('review-dialog')).toHaveCount(0);

    await admin.getByRole('tab', { name: 'Chat Support' }).click();
    await admin.getByTestId('conversation').filter({ hasText: 'Fallback Tester' }).first().click();
    await admin.getByRole('textbox', { name: 'Message' }).fill('We are here');
    await admin.getByLabel('Send message').click();
    await expect(staffToast).toContainText('Failed to send message');
    await admin.getByTestId('clear-chats').click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Clear Chats' }).click();
    await expect(staffToast).toContainText('Failed to clear chats');
    expect(await staffToast.textContent()).not.toContain('Internal Server Error');
  });

  test('both chat threads open at the newest message', async ({ browser }) => {
    const page = await customerPage(browser, {
      email: uniqueEmail('thread'),
      firstName: 'Thread',
      lastName: 'Reader',
    });
    const upload = await page.request.post('/api/chat/upload-attachment', {
      multipart: {
        file: { name: 'card.jpg', mimeType: 'image/jpeg', buffer: readFileSync(CARD_IMAGE) },
      },
    });
    const { url } = await upload.json();
    // Photos that load after the thread first shows make it taller under the reader.
    for (let i = 1; i <= 30; i++) {
      const photo = i % 6 === 0 ? { attachmentUrl: url, attachmentType: 'image' } : {};
      await page.request.post('/api/chat/messages', {
        data: { message: `Message number ${i}`, senderType: 'user', ...photo },
      });
    }
    await page.goto('/chat');
    await expect(page.getByText('Message number 30')).toBeVisible();
    await waitFor(() => isAtBottom(page, 'chat-thread'), 'the customer thread at its end');

    const admin = await staffPage(browser);
    await admin.getByRole('tab', { name: 'Chat Support' }).click();
    await admin.getByTestId('conversation').filter({ hasText: 'Thread Reader' }).first().click();
    await expect(admin.getByTestId('admin-thread')).toContainText('Message number 30');
    await waitFor(() => isAtBottom(admin, 'admin-thread'), 'the staff thread at its end');
  });

  test('a chat reply does not raise the bell while the customer reads the chat, elsewhere it does', async ({
    customer: { page },
    browser,
  }) => {
    const me = await (await page.request.get('/api/auth/user')).json();
    await page.request.post('/api/chat/messages', { data: { message: 'Is my chat being read?' } });
    await page.goto('/chat');
    await expect(page.getByText('Is my chat being read?')).toBeVisible();
    await page.waitForTimeout(300); // the event stream is open
    const staff = await staffContext(browser);
    const reply = (message: string) =>
      staff.request.post('/api/chat/messages', { data: { message, userId: me.id } });

    expect((await reply('Yes, how can we help?')).ok()).toBe(true);
    await expect(page.getByText('Yes, how can we help?')).toBeVisible();
    await expect(page.getByTestId('notification-count')).toHaveCount(0);
    // Read on the server too: it does not come back on the next page.
    await expect
      .poll(async () => (await (await page.request.get('/api/notifications')).json()).unreadCount)
      .toBe(0);

    await page.goto('/history');
    expect((await reply('One more thing')).ok()).toBe(true);
    await expect(page.getByTestId('notification-count')).toHaveText('1');
    await staff.close();
  });

  test('a long email stays inside the desktop sidebar and the attach button still works', async ({
    browser,
  }) => {
    const email = `a.really.long.mailbox.name.for.a.test.${uniqueEmail('long')}`;
    const page = await customerPage(browser, { email, firstName: 'Lee', lastName: 'Long' });
    await page.goto('/chat');
    const sidebar = page.getByTestId('sidebar');
    const sidebarBox = (await sidebar.boundingBox())!;
    const emailBox = (await sidebar.getByText(email).boundingBox())!;
    expect(emailBox.x + emailBox.width).toBeLessThanOrEqual(sidebarBox.x + sidebarBox.width);
    const attach = page.getByRole('button', { name: 'Attach a file' });
    const box = (await attach.boundingBox())!;
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.getAttribute('aria-label'),
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(hit).toBe('Attach a file');
  });

  test('at 375 px staff tables, the Review dialog and payment methods show everything', async ({
    browser,
  }) => {
    const phone = { width: 375, height: 812 };
    const email = `someone.with.a.rather.long.address.${uniqueEmail('wide')}`;
    const page = await customerPage(
      browser,
      { email, firstName: 'Wide', lastName: 'Person' },
      phone,
    );
    await page.request.post('/api/payment-methods', {
      data: { type: 'usdt_trc20', accountName: 'Wide Person', identifier: WALLET },
    });
    await page.request.post('/api/payment-methods', {
      data: {
        type: 'bank_transfer',
        accountName: 'Wide Person',
        bankName: 'First National Bank of Somewhere Far',
        accountNumber: '12345678901234',
        routingNumber: '021000021',
      },
    });
    await page.request.post('/api/support-tickets', {
      data: { email, subject: 'A ticket', message: 'Please help', attachmentUrl: null },
    });
    await submitCardByApi(page.request);
    await page.goto('/payment-methods');
    await expect(page.getByTestId('payment-method')).toHaveCount(3);
    expect(await isShownWhole(page, WALLET)).toBe(true);
    expect(await isShownWhole(page, '1234')).toBe(true);
    expect(await findCutOff(page)).toEqual([]);

    const admin = await staffPage(browser, phone);
    await admin.getByRole('tab', { name: 'Users' }).click();
    await expect(admin.getByTestId('users-table')).toBeVisible();
    expect(await findCutOff(admin)).toEqual([]);
    await admin.getByRole('tab', { name: 'Tickets' }).click();
    await expect(admin.getByTestId('admin-tickets')).toBeVisible();
    expect(await findCutOff(admin)).toEqual([]);
    await admin.getByRole('tab', { name: 'User Uploads' }).click();
    await openReview(admin, email);
    // Submitted By wraps inside the dialog.
    expect(await isShownWhole(admin, email, '[data-testid=review-dialog]')).toBe(true);
    expect(await findCutOff(admin)).toEqual([]);
  });

  test('focus: History returns it to the trigger, one Escape closes Review after a failed save, the file input shows a ring', async ({
    customer: { page, account },
    browser,
  }) => {
    await submitCardByApi(page.request);
    await page.goto('/history');
    const trigger = page.getByRole('button', { name: 'View details of Amazon' }).first();
    await trigger.click();
    await expect(page.getByTestId('transaction-details')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('transaction-details')).toHaveCount(0);
    await waitFor(
      () => trigger.evaluate((el) => el === document.activeElement),
      'focus back on the trigger',
    );

    await page.goto('/upload');
    await page.getByLabel('Notes (optional)').click();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('card-images');
    const ring = await page
      .locator('label[for="card-images"]')
      .evaluate((el) => getComputedStyle(el).boxShadow);
    expect(ring).not.toBe('none');

    const admin = await staffPage(browser);
    await admin.route('**/api/admin/transactions/*', (route) =>
      route.request().method() === 'PATCH' ? route.fulfill(emptyFailure) : route.continue(),
    );
    const dialog = await openReview(admin, account.email);
    await dialog.getByTestId('save-review').click();
    await expect(admin.getByTestId('toast')).toContainText('Failed to update transaction');
    await admin.keyboard.press('Escape');
    await expect(admin.getByTestId('review-dialog')).toHaveCount(0);
  });

  test('Ctrl+B does not toggle the sidebar while typing', async ({ customer: { page } }) => {
    await page.goto('/support');
    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await page.getByLabel('Subject').fill('Bold');
    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await page.getByRole('heading', { level: 1 }).click();
    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  });

  test('a new account is welcomed, not welcomed back; Review says E-Gift', async ({
    customer: { page, account },
    browser,
  }) => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Riley');
    await submitCardByApi(page.request, 'Amazon', 'egift');
    const admin = await staffPage(browser);
    const dialog = await openReview(admin, account.email);
    await expect(dialog).toContainText('E-Gift');
    expect(await dialog.textContent()).not.toContain('egift');
  });

  test('every rejected file is reported, not only the last', async ({ customer: { page } }) => {
    await page.goto('/upload');
    await page.getByTestId('card-images-input').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') },
      { name: 'script.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg/>') },
      { name: 'card.jpg', mimeType: 'image/jpeg', buffer: Buffer.from([0xff, 0xd8, 0xff]) },
    ]);
    // Named together under the photos (issue 43, 20), where a toast covered the fields.
    const refused = page.getByTestId('files-refused');
    await expect(refused).toContainText('2 files were not added');
    await expect(refused).toContainText('notes.txt');
    await expect(refused).toContainText('script.svg');
    await expect(page.getByTestId('picked-file')).toHaveCount(1);
  });

  test('a payment method can be edited and made the default', async ({ customer: { page } }) => {
    for (const name of ['First Wallet', 'Second Wallet']) {
      await page.request.post('/api/payment-methods', {
        data: { type: 'paypal', accountName: name, identifier: 'riley@example.com' },
      });
    }
    await page.goto('/payment-methods');
    const second = page.getByTestId('payment-method').filter({ hasText: 'Second Wallet' });
    await second.getByRole('button', { name: /^Edit/ }).click();
    const dialog = page.getByTestId('payment-method-dialog');
    await dialog.getByLabel('Account Name').fill('Second Wallet Renamed');
    await dialog.getByLabel('Use as my default payment method').click();
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByTestId('toast')).toContainText('Payment method updated');
    const renamed = page.getByTestId('payment-method').filter({ hasText: 'Second Wallet Renamed' });
    await expect(renamed.getByTestId('default-badge')).toBeVisible();
    await expect(page.getByTestId('default-badge')).toHaveCount(1);
  });

  test('the Payment Amount box is empty until staff type an amount', async ({
    customer,
    browser,
  }) => {
    const admin = await staffPageAfterCard(browser, customer.page);
    const dialog = await openReview(admin, customer.account.email);
    const amount = dialog.getByLabel('Payment Amount');
    expect(await amount.inputValue()).toBe('');
    expect(await amount.getAttribute('placeholder')).not.toMatch(/\d/);
  });
});
