import { describe, expect } from 'vitest';
import { addPaypalByApi } from './api-helpers';
import { expectNoSidewaysScroll, screenshot, staffContext, test } from './fixtures';

describe('staff-managed rates', () => {
  test('staff change Amazon’s rate and a customer’s upload form quotes it at once', async ({
    customer: { page },
    browser,
  }) => {
    await addPaypalByApi(page.request);
    await page.goto('/upload');
    await page.getByLabel('Gift Card Brand').selectOption('Amazon');
    await page.getByLabel('Card Value (USD)').fill('100');
    await expect(page.getByTestId('expected-payout')).toHaveText('$91.00');
    await expect(page.getByTestId('payout-rate')).toHaveText('91% rate for Amazon');

    const staff = await (await staffContext(browser)).newPage();
    try {
      await staff.goto('/admin');
      await staff.getByRole('tab', { name: 'Rates' }).click();
      const amazon = staff.getByTestId('rate-row').filter({ hasText: 'Amazon' });
      await expect(amazon.getByTestId('rate-percent')).toContainText('91%');
      await amazon.getByRole('button', { name: 'Edit Amazon' }).click();
      const dialog = staff.getByTestId('rate-dialog');
      await dialog.getByLabel('Rate (0.01–1.00)').fill('0.88');
      await screenshot(staff, 'admin-rate-dialog', false);
      await dialog.getByTestId('save-rate').click();
      await expect(staff.getByTestId('toast')).toContainText('Amazon updated');
      await expect(amazon.getByTestId('rate-percent')).toContainText('88%');
      await expect(staff.getByTestId('rate-history').locator('li').first()).toContainText(
        'rate 0.91 → 0.88',
      );
      await screenshot(staff, 'admin-rates');

      // The customer's open form: no reload, the event brings the new terms.
      await expect(page.getByTestId('expected-payout')).toHaveText('$88.00');
      await expect(page.getByTestId('payout-rate')).toHaveText('88% rate for Amazon');

      await staff.setViewportSize({ width: 375, height: 800 });
      await expectNoSidewaysScroll(staff);
      await screenshot(staff, 'phone-admin-rates');
    } finally {
      // Other browser tests quote Amazon at the seed's 91%.
      const restored = await staff.request.put('/api/admin/rates/Amazon', {
        data: { rate: '0.91' },
      });
      expect(restored.status()).toBe(200);
      await staff.context().close();
    }
    await expect(page.getByTestId('expected-payout')).toHaveText('$91.00');
  });
});
