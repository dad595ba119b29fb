import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { submitCardByApi } from './api-helpers';
import { expectNoAxeFindings } from './axe';
import {
  expectNoSidewaysScroll,
  newCustomerPage,
  PHONE,
  reviewAsStaff,
  screenshot,
  staffPage,
  type Theme,
  test,
} from './fixtures';

const CARD_IMAGE = path.join(import.meta.dirname, '..', 'fixtures', 'card-front.jpg');

/** A new customer's signed-in page, in a theme (light unless given) and a viewport. */
const customerPage = (
  browser: Browser,
  {
    theme = 'light',
    viewport,
  }: { theme?: Theme; viewport?: { width: number; height: number } } = {},
) => newCustomerPage(browser, 'fair', { firstName: 'Fran', lastName: 'Fair' }, { theme, viewport });

/** Staff open the card of `email` in the review dialog. */
async function openReview(admin: Page, email: string) {
  await admin.getByLabel('Search card type, email or ID').fill(email);
  await expect(admin.getByTestId('upload-row')).toHaveCount(1);
  await admin.getByTestId('upload-row').getByRole('button', { name: 'Review' }).click();
  return admin.getByTestId('review-dialog');
}

describe('fair dealing (decision 073)', () => {
  test('staff make a revised offer; the dashboard shows it live and the customer accepts it from the notification', async ({
    browser,
  }) => {
    const { page, email } = await customerPage(browser);
    const card = await submitCardByApi(page.request);
    await page.goto('/');
    await expect(page.getByTestId('recent-transaction')).toHaveCount(1);
    await page.waitForTimeout(300); // the event stream is open

    const admin = await staffPage(browser);
    const dialog = await openReview(admin, email);
    await expect(dialog.getByTestId('review-scam-check')).toHaveText('Not asked (an older app)');
    // The payment amount cannot go below the quote: the form says so before asking the server.
    await dialog.getByLabel('Payment Amount').fill('50');
    await dialog.getByTestId('save-review').click();
    await expect(dialog.getByText(/At least \$91\.00/)).toBeVisible();
    await dialog.getByLabel('Payment Amount').fill('');
    await dialog.getByLabel('Verified balance').fill('40');
    await expect(dialog.getByText('Offer: $36.40 at 0.9100')).toBeVisible();
    await dialog.getByLabel('Note for the customer').fill('The card holds $40.00, not $100.');
    await expectNoAxeFindings(admin, 'review dialog with the offer form');
    await screenshot(admin, 'fair-review-offer-light-desktop');
    await dialog.getByTestId('make-offer').click();
    await expect(dialog.getByTestId('offer-state')).toContainText(
      'Revised offer: $36.40 for a $40.00 balance — waiting for the customer',
    );
    await expect(dialog.getByTestId('card-timeline')).toContainText('Revised offer made');
    await admin.keyboard.press('Escape');
    const badge = admin.getByTestId('upload-row').getByTestId('offer-badge');
    await expect(badge).toHaveText('Offer pending');

    // Live: the dashboard shows the offer and the bell counts it, with no reload.
    const offer = page.getByTestId('recent-transaction').getByTestId('revised-offer');
    await offer.waitFor({ timeout: 3000 });
    await expect(offer.getByTestId('offer-headline')).toHaveText(
      'Revised offer: $36.40 for a $40.00 balance',
    );
    await expect(page.getByTestId('notification-count')).toHaveText('1');
    await screenshot(page, 'fair-dashboard-offer-light-desktop');
    await page.setViewportSize(PHONE);
    await expectNoSidewaysScroll(page);
    await offer.scrollIntoViewIfNeeded();
    await screenshot(page, 'fair-dashboard-offer-light-phone', false);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByTestId('notification-bell').click();
    const item = page.getByTestId('notification').first();
    await expect(item).toContainText('Amazon card of $100.00: Revised offer');
    await item.click();
    await page.waitForURL(`**/history?card=${card.id}`);
    const details = page.getByTestId('transaction-details');
    await expect(details.getByTestId('revised-offer')).toBeVisible();
    await expect(details.getByTestId('card-timeline')).toContainText('Revised offer made');
    await expectNoAxeFindings(page, 'card detail with a revised offer');
    await details.getByRole('button', { name: /Accept the revised offer/ }).click();
    await expect(page.getByTestId('toast')).toContainText('Offer accepted');
    await expect(details.getByTestId('offer-outcome')).toHaveText(
      'You accepted the revised offer of $36.40.',
    );
    await expect(details.getByTestId('card-timeline')).toContainText('Offer accepted');

    // Staff see the answer live in the queue (an open review is never replaced under its
    // editor), and the accepted offer is the amount to pay.
    await expect(badge).toHaveText('Offer accepted');
    const reopened = await openReview(admin, email);
    await expect(reopened.getByTestId('offer-state')).toContainText('accepted by the customer');
    await expect.poll(() => reopened.getByLabel('Payment Amount').inputValue()).toBe('36.40');
    await admin.context().close();
    await page.context().close();
  });

  test('a customer appeals a rejection and staff overturn it', async ({ browser }) => {
    const { page, email } = await customerPage(browser, { theme: 'dark', viewport: PHONE });
    const card = await submitCardByApi(page.request, 'Target');
    expect(
      await reviewAsStaff(browser, card.id, {
        status: 'rejected',
        rejectionReason: 'code_invalid',
      }),
    ).toBe(200);

    await page.goto(`/history?card=${card.id}`);
    const details = page.getByTestId('transaction-details');
    await details.getByTestId('appeal-button').click();
    const appealDialog = page.getByTestId('appeal-dialog');
    await appealDialog.getByRole('button', { name: 'Send appeal' }).click();
    await expect(appealDialog.getByRole('alert')).toContainText('Message is required');
    await appealDialog
      .getByLabel('Your message')
      .fill('The code works: I checked the balance in the store this morning.');
    await appealDialog.getByLabel(/New photos/).setInputFiles(CARD_IMAGE);
    await expectNoAxeFindings(page, 'appeal dialog (dark, phone)');
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'fair-appeal-dialog-dark-phone', false);
    await appealDialog.getByRole('button', { name: 'Send appeal' }).click();
    await expect(page.getByTestId('toast')).toContainText('Appeal sent');
    await expect(page.getByTestId('appeal-status')).toContainText('waiting for a decision');

    const admin = await staffPage(browser);
    await admin.getByLabel('Filter by appeals').selectOption('pending');
    await expect(admin.getByTestId('upload-row').first().getByTestId('appeal-badge')).toHaveText(
      'Appeal',
    );
    await screenshot(admin, 'fair-queue-appeals-light-desktop', false);
    const dialog = await openReview(admin, email);
    const appeal = dialog.getByTestId('appeal-section');
    await expect(appeal).toContainText('I checked the balance in the store');
    await expect(appeal.getByTestId('card-image')).toHaveCount(1);
    await expectNoAxeFindings(admin, 'review dialog with an appeal');
    await screenshot(admin, 'fair-review-appeal-light-desktop');
    await appeal.getByTestId('overturn-appeal').click();
    await expect(admin.getByTestId('toast')).toContainText('Appeal overturned');
    await expect(appeal).toContainText('overturned');
    await expect(dialog.getByTestId('card-timeline')).toContainText('Appeal decided');

    // Live: the customer's open detail follows the decision.
    await page
      .getByTestId('appeal-status')
      .getByText(/back in review/)
      .waitFor({ timeout: 5000 });
    await expect(details.getByTestId('status-badge').first()).toHaveText('Pending Review');
    await details.getByTestId('card-timeline').scrollIntoViewIfNeeded();
    await screenshot(page, 'fair-card-timeline-dark-phone', false);
    await admin.context().close();
    await page.context().close();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the upload form shows the review time and stops on the scam answer (${theme}, phone)`, async ({
      browser,
    }) => {
      const { page } = await customerPage(browser, { theme, viewport: PHONE });
      await page.request.post('/api/payment-methods', {
        data: { type: 'paypal', accountName: 'Fran Fair', identifier: 'fran@example.com' },
      });
      await page.goto('/upload');
      await expect(page.getByTestId('review-time')).toHaveText(
        /^(Usually reviewed within|We aim to review every card within) /,
      );
      await page.getByLabel('Gift Card Brand').selectOption('Amazon');
      await page.getByLabel('Card Value (USD)').fill('100');
      await page.getByRole('radio', { name: 'Brand New' }).click();
      await page.getByRole('radio', { name: 'E-Gift' }).click();
      await page.getByTestId('card-images-input').setInputFiles(CARD_IMAGE);
      // Unanswered, the question asks for an answer before anything is sent.
      await page.getByTestId('submit-card').click();
      await expect(page.getByText('Please answer this question')).toBeVisible();

      await page.getByRole('radio', { name: 'Yes', exact: true }).click();
      const stop = page.getByTestId('scam-stop');
      await expect(stop).toContainText('Stop: this is a scam');
      await expect(stop.getByRole('link', { name: /FTC/ })).toHaveAttribute(
        'href',
        /consumer\.ftc\.gov/,
      );
      await expect(stop.getByRole('link', { name: 'Contact Support' })).toHaveAttribute(
        'href',
        '/support',
      );
      await expect(page.getByTestId('submit-card')).toHaveAttribute('disabled', '');
      await expectNoAxeFindings(page, `upload form stopped by the scam answer (${theme})`);
      await expectNoSidewaysScroll(page);
      await stop.scrollIntoViewIfNeeded();
      await screenshot(page, `fair-upload-scam-${theme}-phone`, false);

      // "No" lets the card through, with the answer recorded.
      await page.getByRole('radio', { name: 'No', exact: true }).click();
      await expect(stop).toHaveCount(0);
      await page.getByTestId('submit-card').click();
      await expect(page.getByTestId('upload-success')).toBeVisible();
      await screenshot(page, `fair-upload-review-time-${theme}-phone`);
      await page.context().close();
    });
  }
});
