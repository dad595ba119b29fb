import { describe, expect } from 'vitest';
import { submitCardByApi } from './api-helpers';
import {
  baseURL,
  CUSTOMER_PASSWORD,
  expectNoSidewaysScroll,
  PHONE,
  reviewCardByApi,
  screenshot,
  staffContext,
  test,
  uniqueEmail,
  waitForMail,
} from './fixtures';

describe('email preferences (issue 22)', () => {
  test('a status email’s unsubscribe link works signed out, and Profile shows it', async ({
    browser,
  }) => {
    const email = uniqueEmail('unsubscriber');
    const customer = await browser.newContext({ baseURL: baseURL(), viewport: PHONE });
    const page = await customer.newPage();
    const signup = await page.request.post('/api/signup', {
      data: { email, password: CUSTOMER_PASSWORD, firstName: 'Uma', lastName: 'Unsubscribe' },
    });
    expect(signup.ok()).toBe(true);
    const card = await submitCardByApi(page.request);
    const staff = await staffContext(browser);
    const review = await reviewCardByApi(staff.request, card.id, { status: 'processing' });
    expect(review.ok()).toBe(true);
    const mail = await waitForMail(email, /Amazon card/);
    const link = mail.text.match(/https?:\/\/\S+\/api\/unsubscribe\?token=\S+/)?.[0];
    expect(link).toMatch(/\/api\/unsubscribe\?token=\S+$/);

    for (const theme of ['light', 'dark'] as const) {
      // Opened from the mail program: no session.
      const signedOut = await browser.newContext({ viewport: PHONE, colorScheme: theme });
      const visitor = await signedOut.newPage();
      await visitor.goto(link!);
      await expect(
        visitor.getByRole('heading', { name: 'Unsubscribe from status updates?' }),
      ).toBeVisible();
      await expectNoSidewaysScroll(visitor);
      await screenshot(visitor, `unsubscribe-confirm-${theme}-375`);
      await visitor.getByRole('button', { name: 'Unsubscribe' }).click();
      await expect(
        visitor.getByRole('heading', { name: 'You are unsubscribed from status updates' }),
      ).toBeVisible();
      await screenshot(visitor, `unsubscribe-done-${theme}-375`);
      await signedOut.close();
    }

    // Profile: status updates off, digests still on; digests switched off there.
    await page.goto('/profile');
    const statusUpdates = page.getByRole('checkbox', { name: 'Status updates' });
    const digests = page.getByRole('checkbox', { name: 'Digests' });
    await expect(statusUpdates).toHaveAttribute('aria-checked', 'false');
    await expect(digests).toHaveAttribute('aria-checked', 'true');
    await digests.click();
    await expect(page.getByText('Digests off', { exact: true })).toBeVisible();
    await expect(digests).toHaveAttribute('aria-checked', 'false');
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Digests' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    await page.getByRole('heading', { name: 'Emails' }).scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'profile-emails-light-375');

    const dark = await browser.newContext({ baseURL: baseURL(), viewport: PHONE });
    await dark.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await dark.addCookies(await customer.cookies());
    const darkPage = await dark.newPage();
    await darkPage.goto('/profile');
    await expect(darkPage.getByRole('checkbox', { name: 'Status updates' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    await darkPage.getByRole('heading', { name: 'Emails' }).scrollIntoViewIfNeeded();
    await screenshot(darkPage, 'profile-emails-dark-375');
    await dark.close();
    await staff.close();
    await customer.close();
  });
});
