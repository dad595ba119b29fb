import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { submitCardByApi } from './api-helpers';
import {
  baseURL,
  CUSTOMER_PASSWORD,
  expectNoSidewaysScroll,
  screenshot,
  staffCredentials,
  staffPage,
  staffPageAfterCard,
  test,
  uniqueEmail,
} from './fixtures';

async function openReview(page: Page, email: string) {
  await page.getByLabel('Search card type, email or ID').fill(email);
  await expect(page.getByTestId('upload-row')).toHaveCount(1);
  await page.getByTestId('upload-row').getByRole('button', { name: 'Review' }).click();
  const dialog = page.getByTestId('review-dialog');
  await expect(dialog.getByTestId('save-review')).toBeVisible();
  return dialog;
}

describe('the staff portal', () => {
  test('staff pay a card and the customer sees it paid, with a receipt', async ({
    customer,
    browser,
  }) => {
    const admin = await staffPageAfterCard(browser, customer.page);
    await expect(admin.getByTestId('admin-pending')).toHaveText(/^\d+$/);
    await screenshot(admin, 'admin-uploads-light-desktop');

    const dialog = await openReview(admin, customer.account.email);
    await expect(dialog.getByTestId('review-expected')).toHaveText('$91.00');
    await expect(dialog).toContainText('Riley Stone');
    await expect(dialog).toContainText('Partially Used');
    await expect(dialog).toContainText('Gift card images (1)');
    await expect(dialog).toContainText('riley.paypal@example.com');
    await expect(dialog).toContainText('PIN is on the back');
    await expect(dialog).toContainText('No staff changes yet.');
    await screenshot(admin, 'admin-review-light-desktop', false);

    await dialog.getByLabel('Status', { exact: true }).selectOption('completed');
    await dialog.getByLabel('Payment Status').selectOption('sent');
    await dialog.getByLabel('Payment Amount').fill('91.00');
    await dialog.getByLabel('Admin Notes').fill('Paid to your PayPal. Thank you!');
    await dialog.getByTestId('save-review').click();
    await expect(admin.getByTestId('toast')).toContainText('Transaction updated successfully');
    await expect(admin.getByTestId('review-dialog')).toHaveCount(0);
    const row = admin.getByTestId('upload-row');
    await expect(row.getByTestId('status-badge')).toHaveText('Completed');
    await expect(row.getByTestId('payment-status-badge')).toHaveText('Payment Sent');

    // The audit trail shows who changed what.
    await row.getByRole('button', { name: 'Review' }).click();
    await expect(admin.getByTestId('audit-history')).toContainText(staffCredentials().email);
    await expect(admin.getByTestId('audit-history')).toContainText(
      'Status: Pending Review → Completed',
    );
    await expect(admin.getByTestId('audit-history')).toContainText('Payment amount: — → $91.00');

    const { page } = customer;
    await page.goto('/');
    const item = page.getByTestId('recent-transaction');
    await expect(item.getByTestId('status-badge')).toHaveText('Completed');
    await expect(item.getByTestId('status-badge')).toHaveAttribute('data-colour', 'green');
    await expect(item.getByTestId('payment-status-badge')).toHaveText('Payment Sent');
    await expect(item.getByTestId('admin-notes')).toHaveText(
      'Notes: Paid to your PayPal. Thank you!',
    );
    await expect(page.getByTestId('stat-earned')).toHaveText('$91.00');
    await screenshot(page, 'dashboard-paid-light-desktop');

    await page.goto('/history');
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: /Download receipt/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^cardbridge-receipt-[0-9a-f]{8}\.pdf$/);
    const saved = await file.path();
    expect(readFileSync(saved).subarray(0, 5).toString()).toBe('%PDF-');
    await admin.context().close();
  });

  test('a stale save is refused and the reviewer can reload', async ({ customer, browser }) => {
    await submitCardByApi(customer.page.request, 'Steam');
    const first = await staffPage(browser);
    const second = await staffPage(browser);
    const firstDialog = await openReview(first, customer.account.email);
    const secondDialog = await openReview(second, customer.account.email);

    await firstDialog.getByLabel('Status', { exact: true }).selectOption('processing');
    await firstDialog.getByTestId('save-review').click();
    await expect(first.getByTestId('toast')).toContainText('Transaction updated successfully');

    await secondDialog.getByLabel('Status', { exact: true }).selectOption('rejected');
    await secondDialog.getByLabel('Rejection Reason').selectOption('code_invalid');
    await secondDialog.getByTestId('save-review').click();
    await expect(second.getByTestId('toast')).toContainText('changed by someone else');
    await expect(secondDialog.getByRole('alert')).toContainText(
      'Someone else changed this transaction',
    );
    await secondDialog.getByRole('button', { name: 'Reload' }).click();
    await expect
      .poll(() => secondDialog.getByLabel('Status', { exact: true }).inputValue())
      .toBe('processing');
    await first.context().close();
    await second.context().close();
  });

  test('the Users tab lists customers with their role', async ({ customer, browser }) => {
    const admin = await staffPage(browser);
    await admin.getByRole('tab', { name: 'Users' }).click();
    const row = admin.getByTestId('user-row').filter({ hasText: customer.account.email });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Riley Stone');
    await expect(row).toContainText('User');
    await screenshot(admin, 'admin-users-light-desktop');
    await admin.context().close();
  });

  test('portal screenshots on a phone and in dark mode', async ({ browser }) => {
    const context = await browser.newContext({
      baseURL: baseURL(),
      viewport: { width: 375, height: 740 },
    });
    const customerPage = await context.newPage();
    await customerPage.request.post('/api/signup', {
      data: {
        email: uniqueEmail('shot'),
        password: CUSTOMER_PASSWORD,
        firstName: 'Sky',
        lastName: 'Vale',
      },
    });
    await submitCardByApi(customerPage.request, 'Target');
    const admin = await staffPage(browser, { width: 375, height: 740 });
    await expect(admin.getByTestId('upload-card').first()).toBeVisible();
    await expectNoSidewaysScroll(admin);
    await screenshot(admin, 'admin-uploads-light-mobile');
    await admin.getByTestId('upload-card').first().getByRole('button', { name: 'Review' }).click();
    await expect(admin.getByTestId('review-dialog')).toContainText('Gift card images');
    await screenshot(admin, 'admin-review-light-mobile', false);
    await admin.evaluate(() => localStorage.setItem('theme', 'dark'));
    await admin.reload();
    await expect(admin.getByTestId('upload-card').first()).toBeVisible();
    await screenshot(admin, 'admin-uploads-dark-mobile');
    await admin.context().close();
    await context.close();
  });
});
