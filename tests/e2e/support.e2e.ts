import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { expectNoSidewaysScroll, screenshot, staffContext, test } from './fixtures';

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
    customer,
    browser,
  }) => {
    const { page } = customer;
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
    const conversation = admin.getByTestId('conversation').filter({ hasText: 'Riley Stone' });
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
    customer,
    browser,
  }) => {
    const { page, account } = customer;
    await page.goto('/support');
    expect(await page.getByLabel('Email').inputValue()).toBe(account.email);
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await expect(page.getByText('Subject is required')).toBeVisible();
    await page.getByLabel('Subject').fill('Payout not received');
    await page
      .getByLabel('Message', { exact: true })
      .fill('My Amazon card was completed but I see no PayPal payment.');
    await page.getByLabel('Attachment URL (optional)').fill('ftp://example.com/x');
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await expect(page.getByText('Attachment must be a valid URL (http or https)')).toBeVisible();
    await page.getByLabel('Attachment URL (optional)').fill('https://example.com/screenshot.png');
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

  test('chat and support on a phone', async ({ customer }) => {
    const { page } = customer;
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
