import { describe, expect } from 'vitest';
import { baseURL, screenshot, test } from './fixtures';

/** One look (issue 43, item 23; decision 141). */
describe('one look', () => {
  test('the theme follows the system until the user chooses, then keeps the choice', async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: baseURL(), colorScheme: 'dark' });
    const page = await context.newPage();
    const dark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await dark()).toBe(true);
    // The system changes: the page follows, live.
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(dark).toBe(false);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(dark).toBe(true);
    // A choice wins over the system, and is kept.
    await page.getByTestId('theme-toggle').first().click();
    await expect.poll(dark).toBe(false);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await dark()).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await context.close();
  });

  test('a signed-out visitor\'s pages log no error, not even a 401 for "who is signed in"', async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: baseURL() });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    const statuses: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/auth/')) statuses.push(r.status());
    });
    for (const path of [
      '/',
      '/?auth=signin',
      '/terms',
      '/privacy',
      '/admin/login',
      '/reset-password',
    ]) {
      // Each page has asked its questions (signed out, nothing streams) before the next.
      await page.goto(path, { waitUntil: 'networkidle' });
    }
    // The pages did ask who is signed in, and were answered without a failure.
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('brands are shown as they spell themselves; the stored key is unchanged', async ({
    customer,
  }) => {
    const page = customer.page;
    await page.goto('/upload');
    const brand = page.getByLabel('Gift Card Brand');
    await expect(brand.locator('option[value="Ebay"]')).toHaveText('eBay');
    await expect(brand.locator('option[value="Dicks Sporting"]')).toHaveText(
      "DICK'S Sporting Goods",
    );
    await expect(brand.locator('option[value="Delta Airline"]')).toHaveText('Delta Air Lines');
    await brand.selectOption('InstaCart');
    await expect(brand).toHaveValue('InstaCart');
    await page.getByLabel('Card Value (USD)').fill('100');
    await expect(page.getByTestId('payout-rate')).toContainText('rate for Instacart');
    await screenshot(page, 'one-look-brand-spelling', false);
  });
});
