import { describe, expect } from 'vitest';
import { submitCardByApi } from './api-helpers';
import { expectNoSidewaysScroll, PHONE, screenshot, staffContext, test } from './fixtures';

const DETAIL = /\/api\/admin\/transactions\/[0-9a-f-]{36}$/;

/**
 * What staff see of a photo the retention run deleted. The run itself, its periods and the 410
 * are tested through the API (tests/api/retention.test.ts): a running server cannot be aged 180
 * days, so here the card's answer names its photo as removed, as the API then answers it.
 */
describe('retention, as staff see it', () => {
  test('a removed photo is a tile saying so, in light and dark, on a phone', async ({
    customer,
    browser,
  }) => {
    await submitCardByApi(customer.page.request);
    for (const theme of ['light', 'dark'] as const) {
      const context = await staffContext(browser, { viewport: PHONE });
      await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
      await context.route(DETAIL, async (route) => {
        const response = await route.fetch();
        const card = await response.json();
        await route.fulfill({ response, json: { ...card, removedImages: card.imageUrls } });
      });
      const page = await context.newPage();
      await page.goto('/admin');
      await page.getByLabel('Search card type, email or ID').fill(customer.account.email);
      // On a phone the uploads are cards, not table rows.
      await expect(page.getByTestId('upload-card')).toHaveCount(1);
      await page.getByTestId('upload-card').getByRole('button', { name: 'Review' }).click();
      const dialog = page.getByTestId('review-dialog');
      await expect(dialog.getByTestId('card-image-removed')).toHaveText(
        'Photo removed (retention)',
      );
      await expect(dialog.getByTestId('card-image')).toHaveCount(0);
      await dialog.getByTestId('card-image-removed').scrollIntoViewIfNeeded();
      await expectNoSidewaysScroll(page);
      await screenshot(page, `retention-removed-photo-${theme}-375`, false);
      await context.close();
    }
  });
});
