import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { pdfText } from '../pdf-text';
import { submitCardByApi } from './api-helpers';
import { CUSTOMER_PASSWORD, reviewAsStaff, screenshot, staffPage, test } from './fixtures';

/** What the customer is told about their money is true (issue 24, decision 060). */

const historyRow = (page: Page, cardType: string) =>
  page.getByTestId('history-row').filter({ hasText: cardType });

describe('money on the customer’s screens', () => {
  test('a rejected card shows "No payout" and no expected payout', async ({
    customer: { page },
    browser,
  }) => {
    const card = await submitCardByApi(page.request, 'Nike');
    await reviewAsStaff(browser, card.id, {
      status: 'rejected',
      rejectionReason: 'image_unreadable',
    });

    await page.goto('/history');
    const row = historyRow(page, 'Nike');
    await expect(row.getByTestId('payment-status-badge')).toHaveText('No payout');
    await expect(row.getByTestId('money-status')).toHaveText('Rejected (no payout)');
    await expect(row.getByTestId('rejection-reason')).toBeVisible();
    await expect(row).not.toContainText('Expected payout');
    await expect(row.getByRole('link', { name: /receipt/i })).toHaveCount(0);

    await row.getByRole('button', { name: 'View details of Nike' }).click();
    const dialog = page.getByTestId('transaction-details');
    await expect(dialog.getByTestId('detail-payment')).toHaveText('No payout');
    await expect(dialog.getByTestId('detail-expected')).toHaveCount(0);
    await expect(dialog).not.toContainText('Expected Payout');
    await expect(dialog).not.toContainText('$87.00');
    await expect(dialog.getByTestId('rejection-reason')).toBeVisible();
    await expect(dialog.getByRole('link', { name: /receipt/i })).toHaveCount(0);
    await page.keyboard.press('Escape');

    await page.goto('/');
    const item = page.getByTestId('recent-transaction').filter({ hasText: 'Nike' });
    await expect(item.getByTestId('recent-payout')).toHaveText('Payout No payout');
    await expect(item.getByTestId('payment-status-badge')).toHaveText('No payout');
    await expect(item).not.toContainText('Expected payout');
    await expect(item).not.toContainText('$87.00');
  });

  test('a completed but unpaid card has no Receipt; after staff mark it paid it has one with the reference', async ({
    customer: { page, account },
    browser,
  }) => {
    const card = await submitCardByApi(page.request);
    await reviewAsStaff(browser, card.id, { status: 'completed' });

    await page.goto('/history');
    const row = historyRow(page, 'Amazon');
    await expect(row.getByTestId('status-badge')).toHaveText('Completed');
    await expect(row.getByTestId('payment-status-badge')).toHaveText('Payment Pending');
    await expect(row.getByTestId('money-status')).toHaveText(
      'Approved (awaiting payment) · $91.00 to be paid',
    );
    await expect(row.getByRole('link', { name: /receipt/i })).toHaveCount(0);
    await row.getByRole('button', { name: 'View details of Amazon' }).click();
    const dialog = page.getByTestId('transaction-details');
    await expect(dialog.getByTestId('detail-payment')).toHaveText('Not paid yet');
    await expect(dialog.getByRole('link', { name: /receipt/i })).toHaveCount(0);
    await page.keyboard.press('Escape');
    const early = await page.request.get(`/api/transactions/${card.id}/receipt`);
    expect(early.status()).toBe(409);
    expect((await early.json()).code).toBe('not_paid');

    await page.goto('/');
    await expect(page.getByTestId('stat-earned')).toHaveText('$0.00');
    await expect(page.getByTestId('stat-awaiting')).toHaveText('$91.00');

    // Staff mark it paid from the Payouts tab, with the transfer's reference.
    const admin = await staffPage(browser);
    await admin.getByRole('tab', { name: 'Payouts' }).click();
    const payout = admin.getByTestId('payout-row').filter({ hasText: account.email });
    await expect(payout).toHaveCount(1);
    await payout.getByRole('checkbox').click();
    await admin.getByTestId('mark-sent').click();
    const confirm = admin.getByRole('alertdialog');
    await confirm.getByLabel('Payout reference (optional)').fill('PP-7F3K2Q9X');
    await screenshot(admin, 'money-mark-paid-reference-light-desktop', false);
    await confirm.getByRole('button', { name: 'Mark as sent' }).click();
    await expect(admin.getByTestId('toast')).toContainText('1 payout marked as sent ($91.00)');
    await admin.context().close();

    await expect(page.getByTestId('stat-earned')).toHaveText('$91.00');
    await expect(page.getByTestId('stat-awaiting')).toHaveText('$0.00');
    await page.goto('/history');
    await expect(row.getByTestId('payment-status-badge')).toHaveText('Payment Sent');
    await expect(row.getByTestId('money-status')).toContainText('Paid · $91.00 paid on');
    await expect(row.getByRole('link', { name: 'Download receipt for Amazon' })).toBeVisible();
    await row.getByRole('button', { name: 'View details of Amazon' }).click();
    await expect(dialog.getByTestId('detail-reference')).toHaveText('PP-7F3K2Q9X');
    await expect(dialog.getByTestId('detail-paid-at')).toBeVisible();
    await expect(dialog.getByRole('link', { name: /Download receipt/ })).toBeVisible();

    const [mine] = await (await page.request.get('/api/transactions')).json();
    expect(mine).toMatchObject({ paymentStatus: 'sent', payoutReference: 'PP-7F3K2Q9X' });
    const receipt = await page.request.get(`/api/transactions/${card.id}/receipt`);
    expect(receipt.status()).toBe(200);
    const shown = (await pdfText(await receipt.body())).join('|');
    expect(shown).toContain('Payout reference|PP-7F3K2Q9X');
    expect(shown).toMatch(/Date paid\|[A-Z][a-z]{2} \d{2}, \d{4}/);
  });

  test('screens of every money status, light and dark, desktop and phone', async ({
    customer: { page },
    browser,
  }) => {
    await submitCardByApi(page.request, 'Target');
    const approved = await submitCardByApi(page.request, 'Steam');
    await reviewAsStaff(browser, approved.id, { status: 'processing' });
    const rejected = await submitCardByApi(page.request, 'Nike');
    await reviewAsStaff(browser, rejected.id, {
      status: 'rejected',
      rejectionReason: 'balance_differs',
    });
    const paid = await submitCardByApi(page.request);
    await reviewAsStaff(browser, paid.id, {
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '91.00',
      payoutReference: 'ACH-20260301-17',
    });

    for (const theme of ['light', 'dark'] as const) {
      for (const [size, viewport] of [
        ['desktop', { width: 1280, height: 800 }],
        ['phone', { width: 375, height: 812 }],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.evaluate((t) => localStorage.setItem('theme', t), theme);
        await page.goto('/');
        await expect(page.getByTestId('recent-transaction')).toHaveCount(4);
        await expect(page.getByTestId('stat-awaiting')).toHaveText('$87.00');
        await screenshot(page, `money-dashboard-${theme}-${size}`);
        await page.goto('/history');
        const rows = page.getByTestId(size === 'phone' ? 'history-card' : 'history-row');
        await expect(rows).toHaveCount(4);
        const said = rows.getByTestId('money-status');
        await expect(said.nth(0)).toHaveText(
          /^Paid · \$91\.00 paid on [A-Z][a-z]{2} \d{2}, \d{4}$/,
        );
        await expect(said.nth(1)).toHaveText('Rejected (no payout)');
        await expect(said.nth(2)).toHaveText('Approved (awaiting payment) · $87.00 to be paid');
        await expect(said.nth(3)).toHaveText('Under review · Expected payout $88.00');
        await screenshot(page, `money-history-${theme}-${size}`);
        await rows.first().getByRole('button', { name: 'View details of Amazon' }).click();
        await expect(page.getByTestId('detail-reference')).toHaveText('ACH-20260301-17');
        await screenshot(page, `money-detail-paid-${theme}-${size}`, false);
        await page.keyboard.press('Escape');
        await rows.nth(1).getByRole('button', { name: 'View details of Nike' }).click();
        await expect(page.getByTestId('detail-payment')).toHaveText('No payout');
        await screenshot(page, `money-detail-rejected-${theme}-${size}`, false);
        await page.keyboard.press('Escape');
      }
    }
  });
});

describe('links that land where they point', () => {
  test('a notification’s link opened signed out asks to sign in, then opens that card', async ({
    customer: { page, account },
    browser,
  }) => {
    const card = await submitCardByApi(page.request, 'Target');
    await reviewAsStaff(browser, card.id, { status: 'processing' });
    const { items } = await (await page.request.get('/api/notifications')).json();
    const link: string = items[0].link;
    expect(link).toBe(`/history?card=${card.id}`);

    await page.request.post('/api/logout');
    await page.goto(link);
    const dialog = page.getByTestId('auth-dialog');
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId('transaction-details')).toHaveCount(0);
    await dialog.getByLabel('Email').fill(account.email);
    await dialog.getByLabel('Password').fill(CUSTOMER_PASSWORD);
    await dialog.getByRole('button', { name: 'Sign In' }).click();

    const details = page.getByTestId('transaction-details');
    await expect(details).toBeVisible();
    await expect(details.getByRole('heading', { name: 'Target' })).toBeVisible();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(link);
    await page.keyboard.press('Escape');
    await expect(details).toHaveCount(0);
    await expect
      .poll(() => new URL(page.url()).pathname + new URL(page.url()).search)
      .toBe('/history');
    await expect(page.getByRole('heading', { name: 'Transaction History' })).toBeVisible();
  });
});
