import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { submitCardByApi } from './api-helpers';
import { baseURL, reviewCardByApi, signInAsStaff, test } from './fixtures';

/**
 * Stretches every timer of 2 s or more to 10 minutes before the app loads: the spec's polls
 * (3 s, 5 s, 10 s) cannot fire during the test, so only /api/events can bring a change. Also
 * notes when the app's event stream says it is subscribed (its first event, `ready`).
 */
async function withoutPolling(page: Page) {
  await page.addInitScript(() => {
    const stretch =
      <F extends (handler: TimerHandler, ms?: number, ...rest: unknown[]) => number>(timer: F) =>
      (handler: TimerHandler, ms?: number, ...rest: unknown[]) =>
        timer(handler, ms !== undefined && ms >= 2000 ? 600_000 : ms, ...rest);
    window.setInterval = stretch(window.setInterval.bind(window)) as typeof window.setInterval;
    window.setTimeout = stretch(window.setTimeout.bind(window)) as typeof window.setTimeout;
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        this.addEventListener('ready', () => {
          (window as unknown as { liveReady: boolean }).liveReady = true;
        });
      }
    };
  });
}

/** Waits for the page's event stream to be subscribed (set up by `withoutPolling`). */
const streamOpen = (page: Page) =>
  page.waitForFunction(() => (window as unknown as { liveReady?: boolean }).liveReady === true);

describe('live updates', () => {
  test('a staff decision reaches the customer’s open History through the event stream', async ({
    customer: { page },
    browser,
  }) => {
    const card = await submitCardByApi(page.request);
    await withoutPolling(page);
    const listFetches: { ifNoneMatch?: string }[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/transactions')
        listFetches.push({ ifNoneMatch: r.headers()['if-none-match'] });
    });
    await page.goto('/history');
    const status = page.getByTestId('history-row').getByTestId('status-badge');
    await expect(status).toHaveText('Pending Review');
    await streamOpen(page);
    const fetchesBefore = listFetches.length;

    const staff = await browser.newContext({ baseURL: baseURL() });
    await signInAsStaff(staff);
    const saved = await reviewCardByApi(staff.request, card.id, {
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '91.00',
    });
    expect(saved.status()).toBe(200);
    // With the polls stretched, only the event can bring it (how fast: npm run bench:streams).
    await status.getByText('Completed', { exact: true }).waitFor();
    await expect(page.getByTestId('history-row').getByTestId('payment-status-badge')).toHaveText(
      'Payment Sent',
    );
    // Brought by the event, not by a poll: exactly one more fetch of the list.
    expect(listFetches.length).toBe(fetchesBefore + 1);
    // It asked with the ETag of what the page showed: an unchanged list would have been a 304.
    expect(listFetches.at(-1)?.ifNoneMatch).toMatch(/^"[\w-]+"$/);
    await staff.close();
  });

  test('staff see a new upload in the queue without pressing refresh', async ({
    customer,
    browser,
  }) => {
    const staff = await browser.newContext({ baseURL: baseURL() });
    const admin = await staff.newPage();
    await withoutPolling(admin);
    await signInAsStaff(staff);
    await admin.goto('/admin');
    await admin.getByLabel('Search card type, email or ID').fill(customer.account.email);
    await expect(admin.getByText('No transactions match.')).toBeVisible();
    await streamOpen(admin);

    await submitCardByApi(customer.page.request, 'Nintendo');
    await admin.getByTestId('upload-row').getByText('Nintendo').waitFor();
    await staff.close();
  });
});
