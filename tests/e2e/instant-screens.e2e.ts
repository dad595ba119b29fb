import type { APIRequestContext, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { INSTANT_POLICY_OFF } from '../lib/instant-policy';
import { noiseImage } from '../lib/noise-image';
import { addPaypalByApi, submitCardByApi, submitCleanCardByApi } from './api-helpers';
import { expectNoAxeFindings } from './axe';
import {
  baseURL,
  CUSTOMER_PASSWORD,
  expectNoSidewaysScroll,
  reviewCardByApi,
  screenshot,
  staffContext,
  staffPage,
  test,
  uniqueEmail,
  waitForMail,
} from './fixtures';

/**
 * The screens of issue 41 (decision 150): the Rates tab's tier editor, rate alerts in the
 * profile, a place in the queue that moves, and why a card was or was not decided at once.
 */

/** A photo no other test sends (random noise), so no automated check flags it as a copy. */
let seed = (Date.now() >> 3) & 0xffff;
const uniquePhoto = () => noiseImage(seed++);

/** A clean $100 e-code with its own photo and the scam question answered. */
async function submitClean(request: APIRequestContext, cardType: string) {
  const method = await addPaypalByApi(request);
  return submitCleanCardByApi(request, cardType, method.id, await uniquePhoto());
}

/** The page in dark, then at 375 px wide: screenshots of both, axe clean and no sideways scroll. */
async function lookAtThemesAndPhone(page: Page, name: string, what: string, ready: string) {
  await expectNoAxeFindings(page, what);
  await screenshot(page, name);
  await page.evaluate(() => localStorage.setItem('theme', 'dark'));
  await page.reload();
  await expect(page.getByTestId(ready).first()).toBeVisible();
  await screenshot(page, `${name}-dark`);
  await expectNoAxeFindings(page, `${what}, dark`);
  await page.setViewportSize({ width: 375, height: 812 });
  await expectNoSidewaysScroll(page);
  await screenshot(page, `phone-${name}-dark`);
  await expectNoAxeFindings(page, `${what}, dark, on a phone`);
  await page.evaluate(() => localStorage.removeItem('theme'));
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('instant screens (issue 41)', () => {
  test('staff edit a brand’s tiers, the server’s message shows in place, and the quote changes', async ({
    customer: { page },
    browser,
  }) => {
    await addPaypalByApi(page.request);
    await page.goto('/upload');
    await page.getByLabel('Gift Card Brand').selectOption('Ulta');
    await page.getByLabel('Card Value (USD)').fill('150');
    await page.getByRole('radio', { name: 'E-Gift' }).click();
    await expect(page.getByTestId('expected-payout')).toHaveText('$129.00');
    await expect(page.getByTestId('payout-quote').getByTestId('rate-tier')).toHaveCount(0);

    const staff = await (await staffContext(browser)).newPage();
    try {
      await staff.goto('/admin');
      await staff.getByRole('tab', { name: 'Rates' }).click();
      const ulta = staff.getByTestId('rate-row').filter({ hasText: 'Ulta' });
      await ulta.getByRole('button', { name: 'Edit Ulta' }).click();
      const dialog = staff.getByTestId('rate-dialog');
      await expect(dialog.getByTestId('no-tiers')).toBeVisible();
      await dialog.getByTestId('add-tier').click();
      const tier = dialog.getByTestId('tier-row').first();
      await tier.getByLabel('Format').selectOption('egift');
      await tier.getByLabel('From ($)').fill('100');
      // Upside down: the server's words under the list, nothing saved.
      await tier.getByLabel('Up to ($)').fill('50');
      await tier.getByLabel('Rate').fill('0.8');
      await dialog.getByTestId('save-rate').click();
      await expect(dialog.getByTestId('tiers-error')).toHaveText(
        'The highest value must be empty or at least the lowest',
      );
      // A band that is not an amount: the server's words under that field.
      await tier.getByLabel('Up to ($)').fill('lots');
      await dialog.getByTestId('save-rate').click();
      await expect(tier).toContainText('A tier value must be an amount with at most 2 decimals');
      await tier.getByLabel('Up to ($)').fill('499.99');
      // A second tier, for any format from $500: added, then removed again.
      await dialog.getByTestId('add-tier').click();
      await expect(dialog.getByTestId('tier-row')).toHaveCount(2);
      await dialog.getByRole('button', { name: 'Remove tier 2' }).click();
      await expect(dialog.getByTestId('tier-row')).toHaveCount(1);
      await screenshot(staff, 'admin-tier-editor', false);
      await expectNoAxeFindings(staff, 'the tier editor');
      await dialog.getByTestId('save-rate').click();
      await expect(staff.getByTestId('toast')).toContainText('Ulta updated');
      await expect(ulta.getByTestId('rate-tier')).toHaveText('E-code, $100–$499.99: 80%');
      await expect(staff.getByTestId('rate-history').locator('li').first()).toContainText(
        'tiers none → E-code, $100–$499.99: 80%',
      );

      // The customer's open form quotes the tier at once, and names it.
      await expect(page.getByTestId('expected-payout')).toHaveText('$120.00');
      await expect(page.getByTestId('payout-rate')).toHaveText('80% rate for Ulta');
      await expect(page.getByTestId('payout-quote').getByTestId('rate-tier')).toHaveText(
        'E-code, $100–$499.99: 80%',
      );
      // A physical card of the same value is outside the tier: the brand rate.
      await page.getByRole('radio', { name: 'Physical' }).click();
      await expect(page.getByTestId('expected-payout')).toHaveText('$129.00');
      await page.getByRole('radio', { name: 'E-Gift' }).click();
      await screenshot(page, 'upload-tier-quote');

      // The editor as it opens again, in dark and on a phone.
      await ulta.getByRole('button', { name: 'Edit Ulta' }).click();
      await expect(dialog.getByTestId('tier-row')).toHaveCount(1);
      await expect(dialog.getByLabel('Up to ($)')).toHaveValue('499.99');
      await staff.evaluate(() => localStorage.setItem('theme', 'dark'));
      await staff.reload();
      await staff.getByRole('tab', { name: 'Rates' }).click();
      await ulta.getByRole('button', { name: 'Edit Ulta' }).click();
      await expect(dialog.getByTestId('tier-row')).toHaveCount(1);
      await screenshot(staff, 'admin-tier-editor-dark', false);
      await expectNoAxeFindings(staff, 'the tier editor, dark');
      await staff.setViewportSize({ width: 375, height: 812 });
      await expectNoSidewaysScroll(staff);
      await screenshot(staff, 'phone-admin-tier-editor-dark', false);
      await expectNoAxeFindings(staff, 'the tier editor on a phone, dark');
    } finally {
      // Other browser tests quote Ulta at the seed's rate alone.
      const restored = await staff.request.put('/api/admin/rates/Ulta', { data: { tiers: [] } });
      expect(restored.status()).toBe(200);
      await staff.context().close();
    }
    await expect(page.getByTestId('expected-payout')).toHaveText('$129.00');
  });

  test('a seller sets a rate alert, sees it listed, is told when the rate rises, and deletes it', async ({
    customer: { page, account },
    browser,
  }) => {
    await page.goto('/profile');
    const alerts = page.getByTestId('rate-alerts');
    await expect(alerts.getByTestId('no-rate-alerts')).toBeVisible();
    // Nothing chosen: the form says what is missing, and sends nothing.
    await alerts.getByTestId('add-rate-alert').click();
    await expect(alerts).toContainText('Choose a brand');
    await expect(alerts).toContainText('Enter a rate from 1% to 100%, with at most 2 decimals');
    await alerts.getByLabel('Brand').selectOption('Ulta');
    await expect(alerts).toContainText('Pays 86% today');
    await alerts.getByLabel('Format').selectOption('egift');
    await alerts.getByLabel('At least (%)').fill('90');
    await alerts.getByTestId('add-rate-alert').click();
    await expect(page.getByTestId('toast')).toContainText(
      'We will tell you when Ulta pays at least 90%.',
    );
    await expect(alerts.getByTestId('rate-alert')).toHaveText(/Ulta e-codes at least 90%/);
    const listed = await (await page.request.get('/api/rate-alerts')).json();
    expect(listed).toMatchObject([{ brand: 'Ulta', format: 'egift', minRate: '0.90' }]);
    await lookAtThemesAndPhone(
      page,
      'profile-rate-alerts',
      'the profile with a rate alert',
      'rate-alert',
    );

    // Staff raise Ulta's e-codes to 91% with a tier: the seller is told under the bell.
    const staff = await staffContext(browser);
    try {
      const raised = await staff.request.put('/api/admin/rates/Ulta', {
        data: { tiers: [{ format: 'egift', minValue: '50', maxValue: null, rate: '0.91' }] },
      });
      expect(raised.status()).toBe(200);
      await expect(page.getByTestId('notification-count')).toBeVisible();
      await page.getByTestId('notification-bell').click();
      const notice = page
        .getByTestId('notification')
        .filter({ hasText: 'Ulta (e-code) now pays up to 91%' });
      await expect(notice).toHaveCount(1);
      await screenshot(page, 'rate-alert-notice', false);
      // And by email, with the link to sell and the one-click unsubscribe.
      const mail = await waitForMail(account.email, /Ulta/, 20_000);
      expect(mail.text).toContain('Ulta (e-code) now pays up to 91%');
      expect(mail.text).toMatch(/https?:\/\/\S+\/upload\?brand=Ulta/);
      expect(mail.text).toMatch(/\/api\/unsubscribe\?token=/);
      // Its link opens the upload form on that brand.
      await notice.click();
      await expect.poll(() => page.url()).toMatch(/\/upload\?brand=Ulta$/);
      await expect(page.getByLabel('Gift Card Brand')).toHaveValue('Ulta');
    } finally {
      const restored = await staff.request.put('/api/admin/rates/Ulta', { data: { tiers: [] } });
      expect(restored.status()).toBe(200);
      await staff.close();
    }

    await page.goto('/profile');
    await alerts.getByRole('button', { name: 'Delete the alert on Ulta at 90%' }).click();
    await expect(page.getByTestId('toast')).toContainText('Alert deleted');
    await expect(alerts.getByTestId('no-rate-alerts')).toBeVisible();
    expect(await (await page.request.get('/api/rate-alerts')).json()).toEqual([]);
  });

  test('a pending card’s place in the queue moves as a card ahead is decided', async ({
    customer,
    browser,
  }) => {
    // Another seller's card, submitted first, is ahead of this customer's.
    const other = await browser.newContext({ baseURL: baseURL() });
    const signedUp = await other.request.post('/api/signup', {
      data: {
        email: uniqueEmail('ahead'),
        firstName: 'Avery',
        lastName: 'Ahead',
        password: CUSTOMER_PASSWORD,
      },
    });
    expect(signedUp.ok()).toBe(true);
    const ahead = await submitCardByApi(other.request, 'Target');
    const { page } = customer;
    const mine = await submitCardByApi(page.request, 'Target');
    const positionOf = async () =>
      (
        (await (await page.request.get('/api/transactions')).json()) as Array<{
          id: string;
          queue: { position: number } | null;
        }>
      ).find((t) => t.id === mine.id)!.queue!.position;
    const before = await positionOf();
    expect(before).toBeGreaterThan(1);

    await page.goto('/history');
    const place = page.locator('[data-testid="queue-place"]:visible');
    await expect(place).toHaveText(new RegExp(`^${before}(st|nd|rd|th) in line`));
    await screenshot(page, 'history-queue-place');

    const staff = await staffContext(browser);
    try {
      // Decided and paid: the card ahead leaves the line, and counts towards the time to payment.
      const decided = await reviewCardByApi(staff.request, ahead.id, {
        status: 'completed',
        paymentStatus: 'sent',
        paymentAmount: '88.00',
      });
      expect(decided.status()).toBe(200);
      // No reload: the server tells the sellers behind, and the line moves up one.
      await expect(place).toHaveText(new RegExp(`^${before - 1}(st|nd|rd|th) in line`));
      await screenshot(page, 'history-queue-moved');
      await page.setViewportSize({ width: 375, height: 812 });
      await expect(place).toBeVisible();
      await expectNoSidewaysScroll(page);
      await screenshot(page, 'phone-history-queue-place');
      await expectNoAxeFindings(page, 'the history with a place in the queue, on a phone');

      // The quote says how soon cards are paid, now that one was.
      await page.goto('/upload');
      await page.getByLabel('Gift Card Brand').selectOption('Target');
      await expect(page.getByTestId('payment-time')).toHaveText(
        /^Usually paid within \d+ (minute|hour)s?.* over the last 7 days$/,
      );
      await screenshot(page, 'phone-upload-payment-time');
    } finally {
      await staff.close();
      await other.close();
    }
  });

  test('staff see the rules a card met or missed, and confirm a sampled instant decision', async ({
    customer,
    browser,
  }) => {
    const staff = await staffPage(browser);
    try {
      const on = await staff.request.put('/api/admin/instant-decisions', {
        data: {
          ...INSTANT_POLICY_OFF,
          enabled: true,
          minLevel: 0,
          minCompletedCards: 0,
          brands: ['Macy'],
          sampleRate: 1,
        },
      });
      expect(on.status()).toBe(200);
      const { page } = customer;
      const instant = await submitClean(page.request, 'Macy');
      expect(instant.decidedBy).toBe('auto');
      const waiting = await submitClean(page.request, 'Ulta');
      expect(waiting.decidedBy).toBeNull();

      // The queue's Sampled filter lists the instant card, searched by its seller.
      await staff.getByLabel('Search card type, email or ID').fill(customer.account.email);
      await staff.getByLabel('Filter by instant decisions').selectOption('pending');
      const rows = staff.getByTestId('upload-row');
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText('Macy');
      await expect(rows.first().getByTestId('instant-badge')).toHaveText('Instant · sampled');
      await rows
        .first()
        .getByRole('button', { name: /^Review Macy/ })
        .click();
      const dialog = staff.getByTestId('review-dialog');
      const panel = dialog.getByTestId('instant-decision');
      await expect(panel).toContainText('Approved at once by the instant-decision rules');
      await expect(panel.locator('[data-testid="instant-rule"][data-met="true"]')).toHaveCount(8);
      await expect(panel.getByTestId('sample-review')).toContainText('waiting for a person');
      await screenshot(staff, 'admin-sampled-instant', false);
      await expectNoAxeFindings(staff, 'a sampled instant decision in the review dialog');
      await panel.getByTestId('sample-confirm').click();
      await expect(staff.getByTestId('toast')).toContainText('Instant decision confirmed');
      await expect(panel.getByTestId('sample-review')).toContainText('confirmed');
      await staff.keyboard.press('Escape');
      await expect(rows).toHaveCount(0);

      // A card that waited says which rule it missed.
      await staff.getByLabel('Filter by instant decisions').selectOption('all');
      await staff
        .getByRole('button', { name: /^Review Ulta/ })
        .first()
        .click();
      await expect(panel).toContainText(
        'Waited for a person: the instant-decision rules were not all met',
      );
      const missed = panel.locator('[data-testid="instant-rule"][data-met="false"]');
      await expect(missed).toHaveCount(1);
      await expect(missed).toHaveText(/Brand not on the instant list/);
      await staff.evaluate(() => localStorage.setItem('theme', 'dark'));
      await staff.reload();
      await staff.getByLabel('Search card type, email or ID').fill(customer.account.email);
      await staff
        .getByRole('button', { name: /^Review Ulta/ })
        .first()
        .click();
      await expect(missed).toHaveCount(1);
      await screenshot(staff, 'admin-instant-missed-dark', false);
      await expectNoAxeFindings(staff, 'a card that waited, in the review dialog, dark');
      await staff.setViewportSize({ width: 375, height: 812 });
      await expectNoSidewaysScroll(staff);
      await screenshot(staff, 'phone-admin-instant-missed-dark', false);
      // The queue's filters, the instant one among them, on a phone.
      await staff.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(staff.getByLabel('Filter by instant decisions')).toBeVisible();
      await expectNoSidewaysScroll(staff);
      await screenshot(staff, 'phone-admin-queue-filters-dark');
      await expectNoAxeFindings(staff, 'the queue with its filters on a phone, dark');
    } finally {
      // Other browser tests expect every card to wait for a person.
      const off = await staff.request.put('/api/admin/instant-decisions', {
        data: INSTANT_POLICY_OFF,
      });
      expect(off.status()).toBe(200);
      await staff.context().close();
    }
  });
});
