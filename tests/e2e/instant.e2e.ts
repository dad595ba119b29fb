import type { APIRequestContext } from 'playwright-core';
import { describe, expect } from 'vitest';
import { INSTANT_POLICY_OFF } from '../lib/instant-policy';
import { noiseImage } from '../lib/noise-image';
import { addPaypalByApi, submitCleanCardByApi } from './api-helpers';
import { expectNoAxeFindings } from './axe';
import { expectNoSidewaysScroll, screenshot, staffContext, test } from './fixtures';

/** Instant decisions and a place in the queue (issue 41), in the browser. */

/** A photo no other test sends (random noise), so no automated check flags it as a copy. */
let seed = Date.now() & 0xffff;
const uniquePhoto = () => noiseImage(seed++);

const submit = async (request: APIRequestContext, cardType: string, paymentMethodId: string) =>
  submitCleanCardByApi(request, cardType, paymentMethodId, await uniquePhoto());

describe('instant decisions', () => {
  test('the owner sets the policy, and a seller’s eligible card is approved at once', async ({
    customer,
    browser,
  }) => {
    const staff = await (await staffContext(browser)).newPage();
    try {
      await staff.goto('/admin');
      await staff.getByRole('tab', { name: 'Rates' }).click();
      const panel = staff.getByTestId('instant-policy');
      await expect(panel).toContainText('Off: every card waits for a person.');
      await panel.getByLabel('Decide eligible cards at once').check();
      await panel.getByLabel('Lowest verification level').fill('0');
      await panel.getByLabel('Completed cards at least').fill('0');
      await panel.getByLabel('Sampled for review (%)').fill('0');
      await panel.getByLabel('Brands').fill('Nordstrom');
      await panel.getByTestId('save-instant-policy').click();
      await expect(staff.getByTestId('toast')).toContainText('Instant-decision policy saved');
      await expect(panel).toContainText('On: trusted sellers’ cards up to $200.00 of Nordstrom');
      await screenshot(staff, 'admin-instant-policy');
      await expectNoAxeFindings(staff, 'the Rates tab with the instant-decision policy');

      const { page } = customer;
      const method = await addPaypalByApi(page.request);
      // A brand off the list waits for a person, with its place in the queue…
      const waiting = await submit(page.request, 'Nike', method.id);
      expect(waiting.decidedBy).toBeNull();
      // …and a listed brand's clean card is approved at once.
      const instant = await submit(page.request, 'Nordstrom', method.id);
      expect(instant.decidedBy).toBe('auto');

      await page.goto('/history');
      // The history shows a table, or cards on a phone: the one on screen says so.
      const instantLine = page.locator('[data-testid="approved-instantly"]:visible');
      await expect(instantLine).toHaveCount(1);
      await expect(page.locator('[data-testid="queue-place"]:visible')).toContainText(
        'in line · a decision in about',
      );
      await screenshot(page, 'history-instant');
      await expectNoAxeFindings(page, 'the history with an instant card and a queued one');
      await page.evaluate(() => localStorage.setItem('theme', 'dark'));
      await page.reload();
      await expect(instantLine).toHaveCount(1);
      await screenshot(page, 'history-instant-dark');
      await page.setViewportSize({ width: 375, height: 812 });
      await expect(instantLine).toHaveCount(1);
      await expectNoSidewaysScroll(page);
      await screenshot(page, 'phone-history-instant-dark');
      await expectNoAxeFindings(page, 'the history on a phone, dark');

      // Staff see who decided it and the rules that held.
      const card = await (await staff.request.get(`/api/admin/transactions/${instant.id}`)).json();
      expect(card.instantDecision.rules).toContain('brand_listed');
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
