import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { startBuiltServer } from '../../scripts/lib/processes';
import { signInStaffOverHttp } from '../../scripts/lib/staff-sign-in';
import { codeAt } from '../../src/server/modules/auth/two-factor';
import { submitCardByApi } from './api-helpers';
import { axeFindings } from './axe';
import {
  baseURL,
  CUSTOMER_PASSWORD,
  expectNoSidewaysScroll,
  newCustomerPage,
  PHONE,
  screenshot,
  staffContext,
  type Theme,
  test,
  uniqueEmail,
} from './fixtures';

/**
 * Verified sellers (issue 19, decision 072): a customer verifies their identity with photos, staff
 * approve it in the Verification tab, and the upload form shows the raised allowance; a suspended
 * customer sees the banner and a disabled upload form. Each new screen is looked at in both themes
 * and on a 375 px phone, and axe finds nothing on it.
 */

const FRONT = path.join(import.meta.dirname, '..', 'fixtures', 'card-front.jpg');
const BACK = path.join(import.meta.dirname, '..', 'fixtures', 'card-back.png');

const customerPage = (
  browser: Browser,
  options: { theme?: Theme; viewport?: { width: number; height: number } } = {},
) =>
  newCustomerPage(
    browser,
    'verify',
    { firstName: 'Riley', lastName: 'Stone' },
    { ...options, theme: options.theme ?? 'light' },
  );

async function expectNoAxeFindings(page: Page) {
  expect(await axeFindings(page)).toEqual([]);
}

async function sendIdentity(page: Page) {
  await page.goto('/verification');
  await page.getByLabel('Legal first name').fill('Riley');
  await page.getByLabel('Legal last name').fill('Stone');
  await page.getByLabel('Date of birth').fill('1990-04-01');
  await page.getByLabel('Document', { exact: true }).selectOption('driving_licence');
  await page.setInputFiles('#documentFront', FRONT);
  await page.setInputFiles('#documentBack', BACK);
  await page.setInputFiles('#selfie', FRONT);
  await page.getByTestId('submit-identity').click();
  await expect(page.getByTestId('verification-pending')).toBeVisible();
}

describe('verified sellers', () => {
  test('a customer verifies their identity with photos, staff approve it, and the upload form shows the new allowance', async ({
    browser,
  }) => {
    const { page, email } = await customerPage(browser);
    await page.goto('/profile');
    await page.getByTestId('profile-verification').getByRole('link', { name: 'Verify' }).click();
    await expect(page.getByRole('heading', { name: 'Verification' })).toBeVisible();
    await expect(page.getByTestId('verification-level-badge')).toHaveText(/Level 0/);
    await screenshot(page, 'verification-form-light');
    await expectNoAxeFindings(page);

    // Too young first: refused in the form with the server's words.
    await page.getByLabel('Date of birth').fill(new Date().toISOString().slice(0, 10));
    await page.getByTestId('submit-identity').click();
    await expect(
      page.getByText('You must be at least 18 years old to sell on Cardbridge'),
    ).toBeVisible();

    await sendIdentity(page);
    await screenshot(page, 'verification-pending-light');

    // Staff open it in the Verification tab: images beside the details, then approve.
    const staff = await (await staffContext(browser)).newPage();
    await staff.goto('/admin');
    await staff.getByRole('tab', { name: 'Verification' }).click();
    const row = staff.getByTestId('verification-row').filter({ hasText: email });
    await row.getByTestId('open-verification').click();
    const dialog = staff.getByTestId('verification-dialog');
    await expect(dialog.getByRole('img', { name: 'Selfie with the document' })).toBeVisible();
    await expect(dialog.getByRole('img', { name: 'Document, back' })).toBeVisible();
    // In words, with the age (issue 43 item 21).
    await expect(dialog.getByTestId('verification-details')).toContainText('April 1, 1990');
    await expect
      .poll(() =>
        dialog
          .getByRole('img')
          .evaluateAll((images) =>
            images.every(
              (i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0,
            ),
          ),
      )
      .toBe(true);
    await screenshot(staff, 'verification-staff-dialog-light', false);
    await expectNoAxeFindings(staff);
    await dialog.getByTestId('approve-verification').click();
    await expect(dialog).not.toBeVisible();
    await staff.getByLabel('Show').selectOption('approved');
    await expect(staff.getByTestId('verification-row').filter({ hasText: email })).toBeVisible();

    // The customer's limits rose at once: the upload form says so before a value is typed.
    await submitCardByApi(page.request);
    await page.goto('/upload');
    await expect(page.getByTestId('allowance-max')).toHaveText('$2,000.00');
    await expect(page.getByTestId('allowance-note')).toContainText('$4,900.00 left in 24 hours');
    await page.getByLabel('Card Value (USD)').fill('2500');
    await expect(page.getByTestId('allowance-note')).toContainText('over what you can sell now');
    await expect(page.getByTestId('verify-link')).toHaveText('Verify your address to sell more');
    await screenshot(page, 'verification-upload-allowance-light');
    await page.goto('/verification');
    await expect(page.getByTestId('verification-level-badge')).toHaveText(/Level 1/);
    await expect(page.getByTestId('address-form')).toBeVisible();
  });

  test('staff suspend a customer in the Users tab; the customer sees the banner and a disabled upload form', async ({
    browser,
  }) => {
    const { page, email } = await customerPage(browser);
    await submitCardByApi(page.request);
    const staff = await (await staffContext(browser)).newPage();
    await staff.goto('/admin');
    await staff.getByRole('tab', { name: 'Users' }).click();
    const row = staff.getByTestId('user-row').filter({ hasText: email });
    await row.getByTestId('suspend-user').click();
    await staff.getByLabel('Reason (the customer reads it)').fill('Cards reported stolen');
    await staff.getByRole('button', { name: 'Suspend' }).last().click();
    await expect(row.getByTestId('standing-badge')).toHaveText('Suspended');
    await screenshot(staff, 'verification-users-suspended-light', false);

    await page.goto('/upload');
    await expect(page.getByTestId('suspended-banner')).toBeVisible();
    expect(await page.getByTestId('submit-card').isDisabled()).toBe(true);
    expect(await page.getByLabel('Card Value (USD)').isDisabled()).toBe(true);
    await screenshot(page, 'verification-suspended-light');
    await expectNoAxeFindings(page);
    // Chat stays open.
    await page.goto('/chat');
    await expect(page.getByTestId('suspended-banner')).toBeVisible();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the new screens fit a 375 px phone and axe finds nothing (${theme})`, async ({
      browser,
    }) => {
      const { page } = await customerPage(browser, { theme, viewport: PHONE });
      await page.goto('/verification');
      await expect(page.getByTestId('identity-form')).toBeVisible();
      await expectNoSidewaysScroll(page);
      await screenshot(page, `verification-form-phone-${theme}`);
      await expectNoAxeFindings(page);
      await page.goto('/upload');
      await expect(page.getByTestId('allowance-note')).toBeVisible();
      await expectNoSidewaysScroll(page);
      await screenshot(page, `verification-upload-phone-${theme}`);
      await expectNoAxeFindings(page);
      await sendIdentity(page);

      const staffCtx = await staffContext(browser, { viewport: PHONE });
      await staffCtx.addInitScript((t) => localStorage.setItem('theme', t), theme);
      const staff = await staffCtx.newPage();
      await staff.goto('/admin');
      await staff.getByRole('tab', { name: 'Verification' }).click();
      await expect(staff.getByTestId('verifications-table')).toBeVisible();
      await screenshot(staff, `verification-staff-tab-phone-${theme}`);
      await expectNoAxeFindings(staff);
      await staff.getByTestId('open-verification').first().click();
      await expect(staff.getByTestId('verification-dialog')).toBeVisible();
      await screenshot(staff, `verification-staff-dialog-phone-${theme}`, false);
      await expectNoAxeFindings(staff);
    });
  }

  test('a new payment method shows the hold in staff’s review dialog', async ({ browser }) => {
    // Its own server with the holds on (the shared one runs with them off for the other tests).
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-e2e-holds-'));
    const server = await startBuiltServer({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PAYOUT_HOLD_NEW_METHOD_HOURS: '24',
      PAYOUT_HOLD_NEW_ACCOUNT_HOURS: '0',
    });
    const { base } = server;
    try {
      const printed = server.output().match(/email:\s+(\S+)[\s\S]*?password:\s+(\S+)/)!;
      const { cookie } = await signInStaffOverHttp(base, {
        email: printed[1]!,
        password: printed[2]!,
      });
      const customer = await browser.newContext({ baseURL: base });
      const signup = await customer.request.post('/api/signup', {
        data: {
          email: uniqueEmail('held'),
          password: CUSTOMER_PASSWORD,
          firstName: 'Riley',
          lastName: 'Stone',
        },
      });
      expect(signup.status()).toBe(200);
      const held = await submitCardByApi(customer.request);

      const context = await browser.newContext({ baseURL: base });
      const [name, value] = cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: base }]);
      const staff = await context.newPage();
      await staff.goto('/admin');
      const card = staff.getByTestId('upload-row').first();
      await expect(card.getByTestId('hold-badge')).toBeVisible();
      await card.getByRole('button', { name: 'Review' }).click();
      const dialog = staff.getByTestId('review-dialog');
      await expect(dialog.getByTestId('review-hold')).toContainText('Hold until');
      await dialog.getByTestId('review-hold').scrollIntoViewIfNeeded();
      await screenshot(staff, 'verification-review-hold-light', false);
      expect(await axeFindings(staff)).toEqual([]);

      // The seller sees it too (issue 43, item 17): on the card, the dashboard and the upload
      // form, with when and why, where staff see "Hold until".
      const seller = await customer.newPage();
      await seller.setViewportSize({ width: 375, height: 812 });
      const says = /^Payment can be sent from [A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} [AP]M: /;
      await seller.goto('/dashboard');
      await expect(seller.getByTestId('payout-hold').first()).toHaveText(says);
      await seller.goto(`/history?card=${held.id}`);
      await expect(seller.getByTestId('transaction-details').getByTestId('payout-hold')).toHaveText(
        says,
      );
      await screenshot(seller, 'verification-seller-hold-375', false);
      expect(await axeFindings(seller)).toEqual([]);
      await seller.goto('/upload');
      await expect(seller.getByTestId('payout-hold')).toHaveText(says);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    // It starts a server of its own on a fresh database: as long as startBuiltServer allows
    // (180 s on a busy machine), and the test's own minute after.
  }, 240_000);

  test('staff edit the limits table in the Rates tab', async ({ browser }) => {
    const staff = await (await staffContext(browser)).newPage();
    await staff.goto('/admin');
    await staff.getByRole('tab', { name: 'Rates' }).click();
    const card = staff.getByTestId('limits-card');
    const setPerCard = async (amount: string) => {
      await card.getByRole('button', { name: 'Edit the limits of level 2' }).click();
      await staff.getByLabel('Per card').fill(amount);
      await staff.getByRole('button', { name: 'Save limits' }).click();
      await expect(staff.getByText('Limits of level 2 saved')).toBeVisible();
    };
    await setPerCard('9000');
    await expect(card.getByTestId('limits-row').last()).toContainText('$9,000.00');
    await screenshot(staff, 'verification-limits-light');
    expect(await axeFindings(staff)).toEqual([]);
    // Back as it was, for the other tests.
    await setPerCard('10000');
    await expect(card.getByTestId('limits-row').last()).toContainText('$10,000.00');
  });

  test('a customer turns two-factor on in Profile, and sign-in then asks for a code', async ({
    browser,
  }) => {
    const { page, email } = await customerPage(browser);
    await page.goto('/profile');
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByTestId('start-two-factor').click();
    const secret = (await page.getByTestId('customer-totp-secret').textContent())!.trim();
    await expect(page.getByTestId('totp-qr')).toBeVisible();
    await page.getByLabel('6-digit code').fill(codeAt(secret, Date.now()));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.getByTestId('customer-recovery-codes')).toBeVisible();
    await screenshot(page, 'verification-two-factor-light');
    expect(await axeFindings(page)).toEqual([]);

    const other = await browser.newContext({ baseURL: baseURL() });
    const signin = await other.request.post('/api/signin', {
      data: { email, password: CUSTOMER_PASSWORD },
    });
    expect(await signin.json()).toEqual({ twoFactorRequired: true });
  });
});
