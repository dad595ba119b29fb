import { describe, expect } from 'vitest';
import { submitCardByApi } from './api-helpers';
import { expectNoAxeFindings } from './axe';
import {
  expectNoSidewaysScroll,
  PHONE,
  reviewCardByApi,
  screenshot,
  staffContext,
  test,
} from './fixtures';

describe('analytics and earnings (issue 21, items 5 and 6)', () => {
  test('the Analytics tab charts the business in both themes and on a phone; the seller sees earnings', async ({
    browser,
    customer,
  }) => {
    // Three cards: one approved and paid, one rejected, one waiting.
    const paid = (await submitCardByApi(customer.page.request, 'Amazon')) as {
      id: string;
      expectedPayout: string;
    };
    const rejected = await submitCardByApi(customer.page.request, 'Target');
    await submitCardByApi(customer.page.request, 'Walmart');
    const staff = await staffContext(browser);
    const decide = async (id: string, data: object) =>
      expect((await reviewCardByApi(staff.request, id, data)).ok()).toBe(true);
    await decide(paid.id, {
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: paid.expectedPayout,
    });
    await decide(rejected.id, { status: 'rejected', rejectionReason: 'code_invalid' });

    for (const [theme, viewport] of [
      ['light', { width: 1280, height: 900 }],
      ['dark', { width: 1280, height: 900 }],
      ['light', PHONE],
    ] as const) {
      const context = await staffContext(browser, { viewport, colorScheme: theme });
      await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
      const page = await context.newPage();
      await page.goto('/admin');
      await page.getByRole('tab', { name: 'Analytics' }).click();
      const tab = page.getByTestId('analytics-tab');
      await expect(tab.getByTestId('chart-card')).toHaveCount(4);
      await expect(tab.getByTestId('approval-rate')).toHaveText(/%$/);
      // Each chart drew its bars or lines.
      await expect
        .poll(() => tab.locator('.recharts-bar-rectangle, .recharts-line-curve').count())
        .toBeGreaterThan(3);
      // The table alternatives, opened, are part of the page axe checks.
      for (const summary of await tab.getByText('Show as a table').all()) await summary.click();
      await expect(tab.locator('table')).toHaveCount(4);
      await expectNoAxeFindings(page, `the Analytics tab (${theme}, ${viewport.width} px)`);
      if (viewport.width === PHONE.width) await expectNoSidewaysScroll(page);
      await screenshot(page, `analytics-${theme}-${viewport.width}`);
      await context.close();
    }

    // The seller: an earnings chart under the dashboard, with the month paid.
    const { page } = customer;
    await page.goto('/dashboard');
    await expect(page.getByTestId('recent-transactions')).toBeVisible();
    // Asked for when the bottom of the page comes into view.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const earnings = page.getByTestId('earnings-chart');
    await expect(earnings).toBeVisible();
    await expect(earnings).toContainText('Amazon');
    await expectNoAxeFindings(page, 'the dashboard with its earnings chart');
    await earnings.scrollIntoViewIfNeeded();
    await screenshot(page, 'dashboard-earnings-light-desktop', false);
  });
});
