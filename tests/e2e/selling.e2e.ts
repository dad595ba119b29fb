import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { expectNoSidewaysScroll, screenshot, test } from './fixtures';

const fixtures = path.join(import.meta.dirname, '..', 'fixtures');

async function addPayPal(page: Page, email: string) {
  await page.goto('/payment-methods');
  await page.getByTestId('add-payment-method').click();
  const dialog = page.getByTestId('payment-method-dialog');
  await dialog.getByLabel('Payment Type').selectOption('paypal');
  await dialog.getByLabel('Account Name').fill('Riley Stone');
  await dialog.getByLabel('PayPal Email').fill(email);
  await dialog.getByRole('button', { name: 'Add Payment Method' }).click();
  await expect(page.getByTestId('toast')).toContainText('Payment method added successfully');
  await expect(page.getByTestId('payment-method')).toHaveCount(1);
}

async function fillAmazonCard(page: Page, value = '100') {
  await page.getByLabel('Gift Card Brand').selectOption('Amazon');
  await page.getByLabel('Card Value (USD)').fill(value);
  await page.getByRole('radio', { name: 'Brand New' }).click();
  await page.getByRole('radio', { name: 'E-Gift' }).click();
  // The scam question (decision 073).
  await page.getByRole('radio', { name: 'No', exact: true }).click();
}

describe('selling a card', () => {
  test('the whole journey: PayPal, an Amazon card of $100 with two photos, then dashboard and history', async ({
    customer: { page, account },
  }) => {
    await page.goto('/upload');
    await expect(page.getByTestId('no-payment-method-banner')).toBeVisible();
    await expect(page.getByLabel('Payment Method')).toContainText('No payment methods available');
    await expect(page.getByText('You must add a payment method before uploading')).toBeVisible();
    await screenshot(page, 'upload-no-method-light-desktop');

    await addPayPal(page, account.email);
    await expect(page.getByTestId('default-badge')).toHaveText('Default');
    await screenshot(page, 'payment-methods-light-desktop');

    await page.getByTestId('nav-upload').click();
    await expect(page.getByTestId('no-payment-method-banner')).toHaveCount(0);
    await fillAmazonCard(page);
    // The code is masked while typed, and can be shown to check it.
    const code = page.getByLabel('Card code / PIN (optional)');
    await code.fill('GIFT-7788-9900-1234');
    await expect(code).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show the card code' }).click();
    await expect(code).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Show the card code' }).click();
    await expect(code).toHaveAttribute('type', 'password');
    await expect(page.getByTestId('expected-payout')).toHaveText('$91.00');
    await expect(page.getByTestId('payout-rate')).toHaveText('91% rate for Amazon');
    await page
      .getByTestId('card-images-input')
      .setInputFiles([path.join(fixtures, 'card-front.jpg'), path.join(fixtures, 'card-back.png')]);
    await expect(page.getByTestId('picked-file')).toHaveCount(2);
    await screenshot(page, 'upload-form-light-desktop');

    await page.getByTestId('submit-card').click();
    await expect(page.getByTestId('upload-success')).toBeVisible();
    await expect(page.getByTestId('upload-success')).toContainText('within 2 hours');
    await expect(page.getByTestId('upload-success')).toContainText(
      'after 9pm Central Time may take longer',
    );
    await expect(page.getByTestId('toast')).toContainText(
      'Your gift card has been submitted for review.',
    );
    await screenshot(page, 'upload-success-light-desktop');

    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    const item = page.getByTestId('recent-transaction');
    await expect(item).toHaveCount(1);
    await expect(item).toContainText('Amazon');
    await expect(item).toContainText('$100.00');
    await expect(item).toContainText('$91.00');
    await expect(item.getByTestId('status-badge')).toHaveText('Pending Review');
    await expect(item.getByTestId('status-badge')).toHaveAttribute('data-colour', 'yellow');
    await expect(page.getByTestId('stat-total')).toHaveText('1');
    await expect(page.getByTestId('stat-pending')).toHaveText('1');
    await expect(page.getByTestId('stat-earned')).toHaveText('$0.00');
    await screenshot(page, 'dashboard-light-desktop');

    await page.getByRole('link', { name: 'View All' }).click();
    const row = page.getByTestId('history-row');
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('status-badge')).toHaveText('Pending Review');
    const badgeColour = await row
      .getByTestId('status-badge')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(badgeColour).toMatch(/rgb\(254, 249, 194\)|oklch\(0\.973 0\.071 103/); // Tailwind's yellow-100
    await expect(row.getByRole('link', { name: /Download receipt/ })).toHaveCount(0);
    await screenshot(page, 'history-light-desktop');

    await row.getByRole('button', { name: /View details/ }).click();
    const details = page.getByTestId('transaction-details');
    await expect(details.getByTestId('detail-rate')).toHaveText('91%');
    await expect(details.getByTestId('detail-expected')).toHaveText('$91.00');
    await expect(details.getByTestId('detail-card-code')).toHaveText('••••1234');
    await expect(page.getByText('GIFT-7788')).toHaveCount(0);
    await expect(details.getByTestId('card-image')).toHaveCount(2);
    await expect
      .poll(() =>
        details
          .getByTestId('card-image')
          .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth)),
      )
      .toEqual([320, 320]);
    await screenshot(page, 'history-details-light-desktop', false);

    // The search and the filter narrow the table.
    await page.keyboard.press('Escape');
    await page.getByLabel('Search by card type or ID').fill('visa');
    await expect(page.getByTestId('history-row')).toHaveCount(0);
    await page.getByLabel('Search by card type or ID').fill('amaz');
    await expect(page.getByTestId('history-row')).toHaveCount(1);
    await page.getByLabel('Filter by status').selectOption('completed');
    await expect(page.getByTestId('history-row')).toHaveCount(0);
  });

  test('the form explains what is missing before anything is sent', async ({
    customer: { page, account },
  }) => {
    await addPayPal(page, account.email);
    await page.goto('/upload');
    await page.getByTestId('submit-card').click();
    await expect(page.getByText('Card type is required')).toBeVisible();
    await expect(page.getByText('Card condition is required')).toBeVisible();

    await fillAmazonCard(page, '20');
    await page.getByTestId('submit-card').click();
    await expect(page.getByText('Minimum value for this card type is $25')).toBeVisible();

    await page.getByLabel('Gift Card Brand').selectOption('Other');
    await page.getByLabel('Card Value (USD)').fill('60');
    await page.getByTestId('submit-card').click();
    await expect(page.getByText('Please specify the gift card type')).toBeVisible();
    await page.getByLabel('Gift Card Type').fill('Corner Bakery');
    await expect(page.getByTestId('payout-rate')).toHaveText('85% rate for Corner Bakery');
    await expect(page.getByTestId('expected-payout')).toHaveText('$51.00');

    await page.getByTestId('submit-card').click();
    await expect(page.getByTestId('toast')).toContainText('Missing Image');
    await expect(page.getByTestId('toast')).toContainText(
      'Please upload at least one gift card image',
    );
    await expect(page.getByTestId('upload-success')).toHaveCount(0);

    // Sell Another Card resets the form after a success.
    await page
      .getByTestId('card-images-input')
      .setInputFiles(path.join(fixtures, 'purchase-receipt.pdf'));
    await page.getByTestId('submit-card').click();
    await expect(page.getByTestId('upload-success')).toBeVisible();
    await page.getByTestId('sell-another').click();
    await expect(page.getByLabel('Gift Card Brand')).toHaveAttribute('aria-invalid', 'false');
    expect(await page.getByLabel('Gift Card Brand').inputValue()).toBe('');
    await expect(page.getByTestId('picked-file')).toHaveCount(0);
  });

  test('payment methods: the form follows the type, and delete asks first', async ({
    customer: { page },
  }) => {
    await page.goto('/profile');
    await page.getByRole('tab', { name: 'Payment Methods' }).click();
    await page.getByTestId('toggle-payment-form').click();
    await page.getByLabel('Payment Type').selectOption('bank_transfer');
    await expect(page.getByLabel('Routing Number')).toBeVisible();
    await page.getByLabel('Account Name').fill('Riley Stone');
    await page.getByRole('button', { name: 'Add Payment Method' }).click();
    await expect(page.getByText('Bank name is required for bank transfers')).toBeVisible();
    await page.getByLabel('Bank Name').fill('First Bank');
    await page.getByLabel('Account Number').fill('000123456789');
    await page.getByLabel('Routing Number').fill('021000021');
    await page.getByRole('button', { name: 'Add Payment Method' }).click();
    await expect(page.getByTestId('payment-method')).toHaveCount(1);
    await expect(page.getByTestId('payment-method')).toContainText('First Bank ••••6789');
    await screenshot(page, 'profile-payments-light-desktop');

    await page.getByRole('button', { name: /Delete Bank Transfer/ }).click();
    await expect(page.getByText('Delete payment method?')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('payment-method')).toHaveCount(1);
    await page.getByRole('button', { name: /Delete Bank Transfer/ }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByTestId('toast')).toContainText('Payment method deleted successfully');
    await expect(page.getByTestId('payment-method')).toHaveCount(0);
  });

  test('staff who open Upload Card or Payment Methods are sent to /admin', async ({ staff }) => {
    const { page } = staff;
    await page.goto('/upload');
    await expect(page.getByTestId('toast')).toContainText('Admin Access');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/admin');
    await page.goto('/payment-methods');
    await expect(page.getByTestId('toast')).toContainText('Admin Access');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/admin');
  });

  test('a session that ends while a page polls shows Unauthorized and goes to sign-in', async ({
    customer: { page },
    context,
  }) => {
    await expect(page.getByTestId('stat-total')).toHaveText('0');
    await context.clearCookies();
    await expect(page.getByTestId('toast')).toContainText(
      'You are logged out. Logging in again...',
    );
    await expect(page.getByTestId('auth-dialog')).toBeVisible();
    expect(new URL(page.url()).search).toBe('?auth=signin');
  });
});

describe('selling screenshots at 375px', () => {
  test('upload, dashboard, history and payment methods on a phone', async ({
    customer: { page, account },
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await addPayPal(page, account.email);
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'payment-methods-light-mobile');
    await page.goto('/upload');
    await fillAmazonCard(page);
    await page
      .getByTestId('card-images-input')
      .setInputFiles(path.join(fixtures, 'card-front.jpg'));
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'upload-form-light-mobile');
    await page.getByTestId('submit-card').click();
    await expect(page.getByTestId('upload-success')).toBeVisible();
    await screenshot(page, 'upload-success-light-mobile');
    await page.goto('/');
    await expect(page.getByTestId('recent-transaction')).toHaveCount(1);
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'dashboard-light-mobile');
    await page.goto('/history');
    await expect(page.getByTestId('history-card')).toBeVisible();
    await expect(page.getByTestId('history-table')).not.toBeVisible();
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'history-light-mobile');
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.goto('/');
    await expect(page.getByTestId('recent-transaction')).toHaveCount(1);
    await screenshot(page, 'dashboard-dark-mobile');
  });
});
