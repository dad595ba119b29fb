import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { submitCardByApi } from './api-helpers';
import { expectNoAxeFindings } from './axe';
import {
  baseURL,
  CUSTOMER_PASSWORD,
  expectNoSidewaysScroll,
  PHONE,
  screenshot,
  test,
  uniqueEmail,
  waitForMail,
} from './fixtures';

describe('privacy: export and delete (issue 22)', () => {
  test('a customer exports their data from Profile and downloads the ZIP', async ({
    customer: { page, account },
  }) => {
    await submitCardByApi(page.request);
    await page.goto('/profile?tab=privacy');
    await expect(page.getByRole('tab', { name: 'Privacy' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.getByTestId('request-export').click();
    await expect(page.getByTestId('toast').first()).toContainText('Export requested');
    const row = page.getByTestId('export-row').first();
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('ready');
    await waitForMail(account.email, /data export is ready/);
    await expectNoAxeFindings(page, 'the privacy tab');
    await screenshot(page, 'privacy-export-light-desktop');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByTestId('download-export').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^cardbridge-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(bytes.toString('latin1')).toContain('cards.json');

    // A second request the same day is refused with the reason.
    await page.getByTestId('request-export').click();
    await expect(page.getByTestId('toast').first()).toContainText('one export every 24 hours');
  });

  test('deletion waits for an open card, then deletes at once when nothing is open', async ({
    browser,
  }) => {
    for (const theme of ['light', 'dark'] as const) {
      const email = uniqueEmail(`leaver-${theme}`);
      const context = await browser.newContext({
        baseURL: baseURL(),
        viewport: PHONE,
        colorScheme: theme,
      });
      await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
      const page = await context.newPage();
      const signup = await page.request.post('/api/signup', {
        data: { email, password: CUSTOMER_PASSWORD, firstName: 'Lea', lastName: 'Ver' },
      });
      expect(signup.ok()).toBe(true);
      await page.goto('/profile?tab=privacy');
      await expect(page.getByTestId('delete-account')).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoAxeFindings(page, `the privacy tab (${theme}, 375 px)`);
      await screenshot(page, `privacy-tab-${theme}-375`);

      const openCard = theme === 'light' ? await submitCardByApi(page.request) : null;
      await page.getByTestId('delete-account').click();
      const dialog = page.getByTestId('delete-account-dialog');
      await dialog.getByLabel('Password').fill('not my password');
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await expect(dialog).toContainText('Password is incorrect');
      await dialog.getByLabel('Password').fill(CUSTOMER_PASSWORD);
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      if (openCard) {
        // An open card: told what, and offered to delete once it settles.
        const items = dialog.getByTestId('open-items');
        await expect(items).toContainText('Amazon $100.00: Still under review');
        await expectNoAxeFindings(page, 'the delete dialog with open items');
        await screenshot(page, `privacy-delete-open-items-${theme}-375`);
        await items.getByTestId('delete-when-settled').click();
        await expect(page.getByTestId('delete-account-card')).toContainText(
          'deleted as soon as your open cards settle',
        );
      } else {
        await expect.poll(() => new URL(page.url()).pathname).toBe('/');
        await expect(page.getByTestId('toast').first()).toContainText('Your account was deleted');
        await screenshot(page, `privacy-deleted-${theme}-375`);
        await waitForMail(email, /account was deleted/);
        const me = await page.request.get('/api/auth/user');
        expect(me.status()).toBe(401);
      }
      await context.close();
    }
  });
});
