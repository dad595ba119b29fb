import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { expectNoSidewaysScroll, screenshot, staffContext, test } from './fixtures';
import { findCutOff } from './layout';

const fixtures = path.join(import.meta.dirname, '..', 'fixtures');

async function staffAdmin(browser: Browser, tab: string): Promise<Page> {
  const context = await staffContext(browser, { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto('/admin');
  await page.getByRole('tab', { name: tab }).click();
  return page;
}

describe('support', () => {
  test('a customer and staff chat with an image, then staff clear the chats', async ({
    customer: { page },
    browser,
  }) => {
    await page.goto('/chat');
    await expect(page.getByText('How can we help?')).toBeVisible();

    // A file the server refuses clears the pending attachment.
    await page.getByTestId('chat-file-input').setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<html>not an image</html>'),
    });
    await expect(page.getByTestId('toast')).toContainText('Failed to upload attachment');
    await expect(page.getByTestId('attachment-state')).toHaveCount(0);

    await page.getByTestId('chat-file-input').setInputFiles(path.join(fixtures, 'card-front.jpg'));
    await expect(page.getByTestId('attachment-state')).toContainText('Attachment ready');
    await page.getByLabel('Message', { exact: true }).fill('Here is my card, is it OK?');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await expect(page.getByTestId('chat-message')).toHaveCount(1);
    await expect(page.getByTestId('chat-message')).toContainText('Here is my card, is it OK?');
    await expect(page.getByTestId('attachment-state')).toHaveCount(0);
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('');

    const admin = await staffAdmin(browser, 'Chat Support');
    // Every fixture customer is Riley Stone: this one is found by its message.
    const conversation = admin
      .getByTestId('conversation')
      .filter({ hasText: 'Here is my card, is it OK?' });
    await expect(conversation).toHaveCount(1);
    await expect(conversation.getByTestId('conversation-count')).toHaveText('1');
    await expect(conversation).toContainText('Here is my card, is it OK?');
    await expect(admin.getByTestId('thread-title')).toHaveText('Select a conversation');
    await conversation.click();
    await expect(admin.getByTestId('thread-title')).toHaveText('Chat with Riley Stone');
    await expect
      .poll(() =>
        admin.getByTestId('chat-image').evaluate((img) => (img as HTMLImageElement).naturalWidth),
      )
      .toBe(320);
    await admin
      .getByLabel('Message', { exact: true })
      .fill('Thanks Riley, we are checking it now.');
    await admin.getByLabel('Message', { exact: true }).press('Enter');
    await expect(admin.getByTestId('toast')).toContainText(
      'Your response has been sent to the user',
    );
    await expect(admin.getByTestId('admin-thread').getByTestId('chat-message')).toHaveCount(2);
    await screenshot(admin, 'admin-chat-light-desktop');

    // The customer's page polls every 3 s.
    await expect(page.getByTestId('chat-message')).toHaveCount(2);
    await expect(page.getByTestId('chat-message').nth(1)).toContainText(
      'Thanks Riley, we are checking it now.',
    );
    await expect(page.getByTestId('chat-message').nth(1)).toContainText('Cardbridge Staff');
    await screenshot(page, 'chat-light-desktop');

    await admin.getByTestId('clear-chats').click();
    await expect(
      admin.getByText(
        'Are you sure you want to clear all chat messages? This action cannot be undone.',
      ),
    ).toBeVisible();
    await admin.getByRole('button', { name: 'Clear Chats' }).last().click();
    await expect(admin.getByTestId('toast')).toContainText('All chat messages have been cleared');
    await expect(admin.getByTestId('chats-empty')).toContainText('No chat messages yet');
    await expect(page.getByTestId('chat-message')).toHaveCount(0);
    await admin.context().close();
  });

  test('a customer files a ticket, staff resolve it, the customer sees it resolved', async ({
    customer: { page, account },
    browser,
  }) => {
    await page.goto('/support');
    // Signed in, the ticket is the account's: its email, not to be typed over.
    expect(await page.getByLabel('Email').inputValue()).toBe(account.email);
    expect(await page.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await expect(page.getByText('Subject is required')).toBeVisible();
    await page.getByLabel('Subject').fill('Payout not received');
    await page
      .getByLabel('Message', { exact: true })
      .fill('My Amazon card was completed but I see no PayPal payment.');
    // The attachment is uploaded as in chat (issue 24, item 11), not typed as a link.
    await expect(page.getByRole('button', { name: 'Attach a file' })).toBeVisible();
    await page.getByTestId('chat-file-input').setInputFiles(path.join(fixtures, 'card-front.jpg'));
    await expect(page.getByTestId('attachment-state')).toContainText('Attachment ready');
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await expect(page.getByTestId('toast')).toContainText(
      'Our support team will get back to you soon',
    );
    const ticket = page.getByTestId('ticket');
    await expect(ticket).toHaveCount(1);
    await expect(ticket.getByTestId('ticket-status')).toHaveText('Open');
    await screenshot(page, 'support-light-desktop');

    const admin = await staffAdmin(browser, 'Tickets');
    const row = admin.getByTestId('admin-ticket').filter({ hasText: 'Payout not received' });
    await expect(row).toContainText(account.email);
    // Staff open the customer's file, shown as a thumbnail, never as its path (issue 43, item 12).
    const attached = row.getByRole('link', { name: 'Attached photo' });
    await expect(attached.getByRole('img', { name: 'Attached photo' })).toBeVisible();
    await expect(row).not.toContainText('/objects/');
    const href = (await attached.getAttribute('href'))!;
    expect((await admin.request.get(href)).status()).toBe(200);
    await row.getByLabel('Status of Payout not received').selectOption('resolved');
    await expect(admin.getByTestId('toast')).toContainText('Ticket updated successfully');
    await expect(row.getByTestId('ticket-status')).toHaveText('Resolved');
    await screenshot(admin, 'admin-tickets-light-desktop');
    // The filter shows one status at a time.
    await admin.getByLabel('Filter tickets by status').selectOption('open');
    await expect(row).toHaveCount(0);
    await admin.getByLabel('Filter tickets by status').selectOption('resolved');
    await expect(row).toHaveCount(1);
    await admin.context().close();

    await page.reload();
    await expect(page.getByTestId('ticket').getByTestId('ticket-status')).toHaveText('Resolved');
  });

  test('staff answer a ticket in its thread; the customer reads the reply and answers it', async ({
    customer: { page, account },
    browser,
  }) => {
    const filed = await page.request.post('/api/support-tickets', {
      data: {
        email: account.email,
        subject: 'Card rejected by mistake',
        message: 'My Target card was rejected but the balance is fine.',
        attachmentUrl: 'https://example.com/balance.png',
      },
    });
    expect(filed.status()).toBe(201);
    await page.goto('/');
    await page.waitForTimeout(300); // the event stream is open

    // Staff see the new ticket waiting for them, and answer it in its thread.
    const admin = await staffAdmin(browser, 'Tickets');
    const row = admin.getByTestId('admin-ticket').filter({ hasText: 'Card rejected by mistake' });
    await expect(row.getByTestId('awaiting-reply')).toHaveText('Awaiting reply');
    await row.getByRole('button', { name: /Open thread/ }).click();
    const thread = admin.getByTestId('admin-ticket-dialog');
    await expect(thread.getByRole('heading', { name: 'Card rejected by mistake' })).toBeVisible();
    await expect(thread).toContainText(`Riley Stone (${account.email})`);
    await expect(thread.getByTestId('chat-message')).toHaveCount(1);
    await expect(thread.getByTestId('chat-message')).toContainText('balance is fine');
    await expect(thread.getByRole('link', { name: 'Link to example.com' })).toBeVisible();
    await thread.getByRole('button', { name: 'Send reply' }).click();
    await expect(thread.getByText('Message is required')).toBeVisible();
    await thread
      .getByLabel('Your reply')
      .fill('Sorry about that. Can you send a photo of the back of the card?');
    await thread.getByRole('button', { name: 'Send reply' }).click();
    await expect(admin.getByTestId('toast')).toContainText('The customer has been notified');
    await expect(thread.getByTestId('chat-message')).toHaveCount(2);
    await expect(thread.getByTestId('awaiting-reply')).toHaveCount(0);
    await expect.poll(() => thread.getByLabel('Your reply').inputValue()).toBe('');
    await screenshot(admin, 'admin-ticket-thread-light-desktop', false);

    // The customer is told; the notification opens the thread.
    await page.getByTestId('notification-count').waitFor({ timeout: 3000 });
    await page.getByTestId('notification-bell').click();
    const notice = page.getByTestId('notification').first();
    await expect(notice).toContainText('Support replied to “Card rejected by mistake”');
    await notice.click();
    await page.waitForURL('**/support?ticket=*');
    const dialog = page.getByTestId('ticket-dialog');
    await expect(dialog.getByRole('heading', { name: 'Card rejected by mistake' })).toBeVisible();
    const messages = dialog.getByTestId('chat-message');
    await expect(messages).toHaveCount(2);
    await expect(messages.nth(0)).toContainText('You');
    await expect(messages.nth(1)).toContainText('Cardbridge Staff');
    await expect(messages.nth(1)).toContainText('photo of the back of the card');
    await dialog.getByLabel('Your reply').fill('Here it is: the code on the back is unscratched.');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await expect(page.getByTestId('toast')).toContainText(
      'Our support team will get back to you soon',
    );
    await expect(messages).toHaveCount(3);
    await expect(messages.nth(2)).toContainText('the code on the back is unscratched');
    await screenshot(page, 'support-ticket-thread-light-desktop', false);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect.poll(() => new URL(page.url()).search).toBe('');
    const item = page.getByTestId('ticket').filter({ hasText: 'Card rejected by mistake' });
    await expect(item).toContainText('2 replies');

    // Staff see the answer arrive in the open thread, and the ticket waiting for them again.
    await expect(thread.getByTestId('chat-message')).toHaveCount(3);
    await expect(thread.getByTestId('chat-message').nth(2)).toContainText('unscratched');
    await expect(thread.getByTestId('awaiting-reply')).toBeVisible();
    await thread.getByLabel('Status of Card rejected by mistake').selectOption('resolved');
    await expect(admin.getByTestId('toast')).toContainText('Ticket updated successfully');
    await expect
      .poll(() => thread.getByLabel('Status of Card rejected by mistake').inputValue())
      .toBe('resolved');
    await admin.keyboard.press('Escape');
    await expect(row.getByTestId('ticket-status')).toHaveText('Resolved');
    await expect(row.getByTestId('awaiting-reply')).toHaveCount(0);
    await admin.context().close();

    // Replying to a resolved ticket opens it again.
    await expect(item.getByTestId('ticket-status')).toHaveText('Resolved');
    await item.getByRole('button', { name: /View conversation/ }).click();
    await expect(dialog).toContainText('Replying opens it again');
    await dialog.getByLabel('Your reply').fill('Actually, one more question.');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await expect(page.getByTestId('toast')).toContainText('Your ticket is open again');
    await expect(dialog.getByTestId('ticket-status')).toHaveText('Open');
  });

  test('staff see unread customer messages and who needs a reply', async ({
    customer: { page },
    browser,
  }) => {
    for (const message of ['Hello?', 'Is anyone there?']) {
      const sent = await page.request.post('/api/chat/messages', { data: { message } });
      expect(sent.status()).toBe(201);
    }
    const admin = await staffAdmin(browser, 'Chat Support');
    const total = admin.getByTestId('chat-unread-total');
    await expect(total).toBeVisible();
    const before = Number(await total.textContent());
    expect(before).toBeGreaterThanOrEqual(2);
    const conversation = admin.getByTestId('conversation').filter({ hasText: 'Is anyone there?' });
    await expect(conversation).toHaveCount(1);
    await expect(conversation.getByTestId('conversation-count')).toHaveText('2');
    await expect(conversation.getByTestId('needs-reply')).toHaveText('Needs reply');
    // Conversations that need a reply come first: none with the marker below one without.
    const markers = await admin
      .getByTestId('conversation')
      .evaluateAll((items) => items.map((i) => !!i.querySelector('[data-testid="needs-reply"]')));
    expect(markers).toContain(true);
    expect(markers).toEqual([...markers].sort((a, b) => Number(b) - Number(a)));
    await screenshot(admin, 'admin-chat-unread-light-desktop');

    // Opening the thread reads the messages; a reply ends "needs reply".
    await conversation.click();
    // The open conversation, whatever its last message becomes.
    const open = admin.locator('[data-testid="conversation"][aria-pressed="true"]');
    await expect(admin.getByTestId('thread-title')).toHaveText('Chat with Riley Stone');
    await expect(open.getByTestId('conversation-count')).toHaveCount(0);
    await expect
      // Hidden at 0; allTextContents does not wait for the badge to be there.
      .poll(async () => Number((await total.allTextContents())[0] ?? 0))
      .toBe(before - 2);
    await admin.getByLabel('Message', { exact: true }).fill('Yes, how can we help?');
    await admin.getByLabel('Message', { exact: true }).press('Enter');
    await expect(open.getByTestId('needs-reply')).toHaveCount(0);

    // A new message in the open thread is read as it arrives.
    await page.request.post('/api/chat/messages', { data: { message: 'My card is stuck' } });
    await expect(admin.getByTestId('admin-thread')).toContainText('My card is stuck');
    await expect(open.getByTestId('needs-reply')).toBeVisible();
    await expect(open.getByTestId('conversation-count')).toHaveCount(0);
    await admin.context().close();
  });

  test('ticket threads on a phone, light and dark', async ({
    customer: { page, account },
    browser,
  }) => {
    const ticket = await (
      await page.request.post('/api/support-tickets', {
        data: {
          email: account.email,
          subject: 'A very long subject line about a payout that has not arrived yet',
          message: 'I was paid to the wrong PayPal address, could you check?',
        },
      })
    ).json();
    const staff = await staffContext(browser);
    const answered = await staff.request.post(`/api/admin/support-tickets/${ticket.id}/replies`, {
      data: { message: 'We are checking with PayPal and will write back here within a day.' },
    });
    expect(answered.status()).toBe(201);
    await staff.close();

    await page.setViewportSize({ width: 375, height: 740 });
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => localStorage.setItem('theme', t), theme);
      await page.goto(`/support?ticket=${ticket.id}`);
      const dialog = page.getByTestId('ticket-dialog');
      await expect(dialog.getByTestId('chat-message')).toHaveCount(2);
      expect(await findCutOff(page)).toEqual([]);
      await screenshot(page, `support-ticket-thread-${theme}-mobile`, false);
    }
    await page.keyboard.press('Escape');
    const item = page.getByTestId('ticket').first();
    await expect(item.getByTestId('support-replied')).toBeVisible();
    expect(await findCutOff(page)).toEqual([]);
    await screenshot(page, 'support-dark-mobile');

    const admin = await (
      await staffContext(browser, { viewport: { width: 375, height: 740 } })
    ).newPage();
    for (const theme of ['light', 'dark'] as const) {
      await admin.goto('/admin');
      await admin.evaluate((t) => localStorage.setItem('theme', t), theme);
      await admin.reload();
      await admin.getByRole('tab', { name: 'Tickets' }).click();
      const row = admin.getByTestId('admin-ticket').filter({ hasText: 'A very long subject' });
      await row.getByRole('button', { name: /Open thread/ }).click();
      const thread = admin.getByTestId('admin-ticket-dialog');
      await expect(thread.getByTestId('chat-message')).toHaveCount(2);
      expect(await findCutOff(admin)).toEqual([]);
      await screenshot(admin, `admin-ticket-thread-${theme}-mobile`, false);
      await admin.keyboard.press('Escape');
      await admin.getByRole('tab', { name: 'Chat Support' }).click();
      await admin.waitForTimeout(300);
      expect(await findCutOff(admin)).toEqual([]);
      await screenshot(admin, `admin-chat-${theme}-mobile`, false);
    }
    await admin.context().close();
  });

  test('chat and support on a phone', async ({ customer: { page } }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/chat');
    await page.getByLabel('Message', { exact: true }).fill('Hello from my phone');
    await page.getByLabel('Send message').click();
    await expect(page.getByTestId('chat-message')).toHaveCount(1);
    await screenshot(page, 'chat-light-mobile', false);
    await expectNoSidewaysScroll(page);
    await page.goto('/support');
    await expect(page.getByRole('heading', { name: 'Your Tickets' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'support-light-mobile');
  });
});
