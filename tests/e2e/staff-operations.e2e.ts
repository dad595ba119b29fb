import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { describe, expect } from 'vitest';
import { parseCsv } from '../parse-csv';
import { submitCardByApi } from './api-helpers';
import {
  newCustomerPage,
  reviewAsStaff,
  screenshot,
  staffPage,
  test,
  waitForMail,
} from './fixtures';
import { findCutOff } from './layout';

/** Issue 11: rejection reasons, payouts and ratings, as staff and customers use them. */

/** Staff approve a card for payment through the API, as the Review dialog would. */
const approve = (browser: Browser, id: string, status = 'processing') =>
  reviewAsStaff(browser, id, { status });

describe('staff operations', () => {
  test('staff export payouts and mark them sent; the customer sees Payment Sent and rates the sale', async ({
    customer: { page, account },
    browser,
  }) => {
    const card = await submitCardByApi(page.request);
    await approve(browser, card.id);
    // A second card to pay, left for later: the group is then partly chosen.
    await approve(browser, (await submitCardByApi(page.request, 'Steam')).id);

    const admin = await staffPage(browser);
    await admin.getByRole('tab', { name: 'Payouts' }).click();
    const row = admin
      .getByTestId('payout-row')
      .filter({ hasText: account.email })
      .filter({ hasText: 'Amazon' });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('payout-amount')).toHaveText('$91.00');
    await expect(row).toContainText('riley.paypal@example.com');
    await screenshot(admin, 'admin-payouts-light-desktop');

    const download = admin.waitForEvent('download');
    await admin.getByTestId('export-payouts').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^cardbridge-payouts-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = readFileSync(await file.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parseCsv(bytes.subarray(3).toString('utf8'));
    expect(header).toContain('Account Name');
    const exported = rows.find((r) => r[0] === card.id);
    expect(exported).toEqual([
      card.id,
      expect.any(String),
      'Riley Stone',
      account.email,
      'PayPal',
      'Riley Stone',
      'riley.paypal@example.com',
      '',
      '',
      '',
      'Amazon',
      '100.00',
      '91.00',
    ]);

    await row.getByRole('checkbox').click();
    await expect(admin.getByTestId('payouts')).toContainText('1 selected · $91.00');
    await expect(
      admin.getByRole('checkbox', { name: 'Select every PayPal payout' }),
    ).toHaveAttribute('aria-checked', 'mixed');
    await admin.getByTestId('mark-sent').click();
    const confirm = admin.getByRole('alertdialog');
    await expect(confirm).toContainText('Mark 1 payout as sent?');
    await expect(confirm).toContainText('$91.00 to 1 customer');
    await screenshot(admin, 'admin-payouts-confirm-light-desktop', false);
    await confirm.getByRole('button', { name: 'Mark as sent' }).click();
    await expect(admin.getByTestId('toast')).toContainText('Success');
    await expect(admin.getByTestId('toast')).toContainText('1 payout marked as sent ($91.00)');
    await expect(row).toHaveCount(0);

    // The customer: paid, told, and asked for a rating.
    await page.goto('/history');
    const historyRow = page.getByTestId('history-row').filter({ hasText: 'Amazon' });
    await expect(historyRow.getByTestId('payment-status-badge')).toHaveText('Payment Sent');
    await expect(historyRow.getByTestId('status-badge')).toHaveText('Completed');
    await page.getByTestId('notification-bell').click();
    await expect(page.getByTestId('notification').first()).toContainText(
      'Payment: Payment Sent. Payment amount: $91.00.',
    );
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'View details of Amazon' }).click();
    const details = page.getByTestId('transaction-details');
    const feedback = details.getByTestId('card-feedback');
    await expect(feedback).toContainText('How did this sale go?');
    await feedback.getByRole('button', { name: 'Submit rating' }).click();
    await expect(feedback.getByRole('alert')).toHaveText(
      'Rating must be a whole number from 1 to 5',
    );
    // Stars are radios: the keyboard moves between them.
    await feedback.getByRole('radio', { name: '3 stars' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => feedback.getByRole('radio', { name: '4 stars' }).isChecked())
      .toBe(true);
    await feedback.getByLabel('Comment (optional)').fill('Paid the same afternoon');
    await screenshot(page, 'history-rating-form-light-desktop', false);
    await feedback.getByRole('button', { name: 'Submit rating' }).click();
    await expect(page.getByTestId('toast')).toContainText('Your rating was saved.');
    await expect(feedback).toContainText('Your rating');
    await expect(feedback.getByTestId('star-rating')).toHaveAttribute('data-rating', '4');
    await expect(feedback).toContainText('Paid the same afternoon');
    await expect(feedback.getByRole('radio')).toHaveCount(0);
    await screenshot(page, 'history-rated-light-desktop', false);

    // Staff see the rating in the Review dialog, and an average on the summary.
    await admin.getByRole('tab', { name: 'User Uploads' }).click();
    await admin.getByLabel('Search card type, email or ID').fill(card.id);
    await expect(admin.getByTestId('upload-row')).toHaveCount(1);
    await admin.getByTestId('upload-row').getByRole('button', { name: 'Review' }).click();
    const review = admin.getByTestId('review-feedback');
    await expect(review).toContainText('Paid the same afternoon');
    await expect(review.getByTestId('star-rating')).toHaveAttribute('data-rating', '4');
    await expect(admin.getByTestId('audit-history')).toContainText('marked sent from Payouts');
    await admin.keyboard.press('Escape');
    await expect
      .poll(() => admin.getByTestId('admin-rating').textContent())
      .toMatch(/^\d\.\d \/ 5\d+ ratings?$/);
    await admin.context().close();
  });

  test('a rejection needs a reason, and the customer reads it everywhere', async ({
    customer: { page, account },
    browser,
  }) => {
    await submitCardByApi(page.request, 'Steam');
    const admin = await staffPage(browser);
    await admin.getByLabel('Search card type, email or ID').fill(account.email);
    await expect(admin.getByTestId('upload-row')).toHaveCount(1);
    await admin.getByTestId('upload-row').getByRole('button', { name: 'Review' }).click();
    const dialog = admin.getByTestId('review-dialog');
    await dialog.getByLabel('Status', { exact: true }).selectOption('rejected');
    await dialog.getByTestId('save-review').click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'Rejection reason is required when the status is Rejected',
    );
    await dialog.getByLabel('Rejection Reason').selectOption('other');
    await dialog.getByTestId('save-review').click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'Rejection note is required when the reason is Other',
    );
    await screenshot(admin, 'admin-review-rejection-light-desktop', false);
    await dialog
      .getByLabel('Reason for the customer')
      .fill('The card belongs to another region and cannot be redeemed here');
    await dialog.getByTestId('save-review').click();
    await expect(admin.getByTestId('toast')).toContainText('Transaction updated successfully');
    await admin.getByTestId('upload-row').getByRole('button', { name: 'Review' }).click();
    await expect(admin.getByTestId('audit-history')).toContainText('Rejection reason: — → Other');
    await admin.context().close();

    const reason = 'Reason: The card belongs to another region and cannot be redeemed here';
    await page.goto('/');
    await expect(page.getByTestId('recent-transaction').getByTestId('rejection-reason')).toHaveText(
      reason,
    );
    await screenshot(page, 'dashboard-rejected-light-desktop');
    await page.goto('/history');
    await expect(page.getByTestId('history-row').getByTestId('rejection-reason')).toContainText(
      'another region',
    );
    await page.getByRole('button', { name: 'View details of Steam' }).click();
    await expect(
      page.getByTestId('transaction-details').getByTestId('rejection-reason'),
    ).toHaveText(reason);
    const mail = await waitForMail(account.email, /Rejected/);
    expect(mail.text).toContain(
      'Reason: The card belongs to another region and cannot be redeemed here.',
    );
  });

  test('payouts, a rejection and a rating on a phone, light and dark', async ({ browser }) => {
    for (const theme of ['light', 'dark'] as const) {
      const { page, email } = await newCustomerPage(
        browser,
        'phone',
        { firstName: 'Sky', lastName: 'Vale' },
        { theme, viewport: { width: 375, height: 740 } },
      );
      const paid = await submitCardByApi(page.request, 'Target');
      await approve(browser, paid.id, 'completed');
      const rejected = await submitCardByApi(page.request, 'Nike');
      await reviewAsStaff(browser, rejected.id, {
        status: 'rejected',
        rejectionReason: 'already_redeemed',
      });

      const admin = await staffPage(browser, { width: 375, height: 740 });
      await admin.evaluate((t) => localStorage.setItem('theme', t), theme);
      await admin.reload();
      await admin.getByRole('tab', { name: 'Payouts' }).click();
      const row = admin.getByTestId('payout-row').filter({ hasText: email });
      await row.getByRole('checkbox').click();
      expect(await findCutOff(admin)).toEqual([]);
      await screenshot(admin, `admin-payouts-${theme}-phone`);
      await admin.getByTestId('mark-sent').click();
      await expect(admin.getByRole('alertdialog')).toBeVisible();
      await screenshot(admin, `admin-payouts-confirm-${theme}-phone`, false);
      await admin.keyboard.press('Escape');
      await admin.context().close();

      await page.goto('/');
      await expect(page.getByTestId('rejection-reason')).toHaveText('Reason: Already redeemed');
      expect(await findCutOff(page)).toEqual([]);
      await screenshot(page, `dashboard-rejected-${theme}-phone`);
      await page.goto('/history');
      await expect(page.getByTestId('history-card')).toHaveCount(2);
      expect(await findCutOff(page)).toEqual([]);
      await screenshot(page, `history-rejected-${theme}-phone`);
      await page.getByRole('button', { name: 'View details of Target' }).click();
      await expect(page.getByTestId('card-feedback')).toBeVisible();
      const stars = page.getByTestId('card-feedback');
      // A person taps the star (the label); the radio itself is visually hidden.
      await stars
        .locator('label')
        .filter({ has: page.getByRole('radio', { name: '5 stars' }) })
        .click();
      expect(await stars.getByRole('radio', { name: '5 stars' }).isChecked()).toBe(true);
      expect(await findCutOff(page)).toEqual([]);
      await screenshot(page, `history-rating-${theme}-phone`, false);
      await page.context().close();
    }
  });
});
