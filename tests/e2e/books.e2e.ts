import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { submitCardByApi } from './api-helpers';
import { expectNoAxeFindings } from './axe';
import {
  DESKTOP,
  expectNoSidewaysScroll,
  newCustomerPage,
  PHONE,
  reviewCardByApi,
  screenshot,
  staffContext,
  type Theme,
  test,
  themedStaffContext,
} from './fixtures';

/**
 * The books in the browser (issue 39, decision 095): the seller's Balance panel and Statement
 * after approval, payment, a clawback and its netting against a later card; the clawback form on
 * the staff's card; the Books tab's trial balance and a reconciliation upload. Axe finds nothing
 * on these screens, in either theme, on a desktop or a phone.
 */

interface PayoutsAnswer {
  groups: { cards: { id: string; amount: string; netted: string }[] }[];
}

/** Staff approve a card (Completed), as the review dialog saves it. */
async function approve(staff: APIRequestContext, id: string) {
  const response = await reviewCardByApi(staff, id, { status: 'completed' });
  if (!response.ok()) throw new Error(await response.text());
}

/** Staff mark a card's payout sent with `reference`, at the amount the payouts list shows. */
async function markSent(staff: APIRequestContext, id: string, reference: string) {
  const payouts = (await (await staff.get('/api/admin/payouts')).json()) as PayoutsAnswer;
  const card = payouts.groups.flatMap((g) => g.cards).find((c) => c.id === id);
  if (!card) throw new Error(`card ${id} is not in the payouts list`);
  const response = await staff.post('/api/admin/payouts/mark-sent', {
    data: { items: [{ id, amount: card.amount }], payoutReference: reference },
  });
  const result = await response.json();
  if (!response.ok() || result.sent.length !== 1) throw new Error(JSON.stringify(result));
  return card;
}

/** A signed-up seller in a new context of their own, with the theme and size asked for. */
const sellerPage = (browser: Browser, theme: Theme = 'light', viewport = DESKTOP) =>
  newCustomerPage(browser, 'books', { firstName: 'Bea', lastName: 'Books' }, { theme, viewport });

async function staffPageIn(context: BrowserContext) {
  const page = await context.newPage();
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  return page;
}

/** Staff open the only card of `email` in the review dialog. */
async function openReview(admin: Page, email: string, cardType: string) {
  await admin.getByLabel('Search card type, email or ID').fill(email);
  // A phone shows the queue as cards, a wider screen as a table.
  const phone = (admin.viewportSize()?.width ?? DESKTOP.width) < 640;
  const row = admin.getByTestId(phone ? 'upload-card' : 'upload-row').filter({ hasText: cardType });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Review' }).click();
  const dialog = admin.getByTestId('review-dialog');
  await expect(dialog.getByTestId('clawbacks')).toBeVisible();
  return dialog;
}

describe('the books on screen (issue 39)', () => {
  test('approval, payment, a clawback and its netting show on the Balance panel and the Statement; the Books tab balances and reconciles', async ({
    browser,
  }) => {
    const { page, email } = await sellerPage(browser);
    const staff = await staffContext(browser, { viewport: DESKTOP });
    const reference = `PP-BOOKS-${Date.now().toString(36).toUpperCase()}`;

    // 1. Approved, then marked sent: the panel and the statement show both.
    const first = await submitCardByApi(page.request, 'Amazon');
    await approve(staff.request, first.id);
    await page.goto('/');
    await expect(page.getByTestId('balance-owed')).toHaveText('$91.00');
    await expect(page.getByTestId('balance-paid')).toHaveText('$0.00');
    await page.waitForTimeout(300); // the event stream is open
    await markSent(staff.request, first.id, reference);
    // Live: the panel refreshes on the cards' topic, without a reload.
    await expect(page.getByTestId('balance-paid')).toHaveText('$91.00');
    await expect(page.getByTestId('balance-owed')).toHaveText('$0.00');
    await expect(page.getByTestId('balance-on-the-way')).toHaveText('$0.00');
    await expect(page.getByTestId('balance-owed-back')).toHaveText('$0.00');
    await expectNoAxeFindings(page, 'dashboard with the Balance panel');

    await page.getByTestId('balance-statement-link').click();
    await expect(page.getByRole('heading', { name: 'Statement' })).toBeVisible();
    const rows = page.getByTestId('statement-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).getByTestId('statement-description')).toHaveText(
      /^Paid to PayPal rile…$/,
    );
    await expect(rows.nth(0).getByTestId('statement-amount')).toHaveText('-$91.00');
    await expect(rows.nth(0).getByTestId('statement-balance')).toHaveText('$0.00');
    await expect(rows.nth(1).getByTestId('statement-description')).toHaveText(
      'Card Amazon $100.00 approved',
    );
    await expect(rows.nth(1).getByTestId('statement-amount')).toHaveText('+$91.00');
    await expect(rows.nth(1).getByTestId('statement-balance')).toHaveText('$91.00');
    const csv = await page.request.get(
      (await page.getByTestId('statement-csv').getAttribute('href'))!,
    );
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain('Card Amazon $100.00 approved');

    // 2. Staff take $20 back on the card: more than was paid is refused in words first.
    const admin = await staffPageIn(staff);
    const dialog = await openReview(admin, email, 'Amazon');
    await expect(dialog.getByTestId('clawback-row')).toHaveCount(0);
    await dialog.getByTestId('clawback-open').click();
    const form = dialog.getByTestId('clawback-form');
    await expect(form.getByLabel('Amount')).toHaveValue('91.00');
    await form.getByLabel('Amount').fill('500');
    await form.getByLabel('Note (the seller reads it)').fill('The retailer says it was spent.');
    await form.getByTestId('clawback-submit').click();
    await expect(form.getByText('At most $91.00', { exact: true })).toBeVisible();
    await expect(form.getByRole('alert').first()).toBeVisible();
    await expectNoAxeFindings(admin, 'clawback form refused over the amount');
    await form.getByLabel('Reason').selectOption('other');
    await form.getByLabel('Why (the seller reads it)').fill('');
    await form.getByTestId('clawback-submit').click();
    await expect(form.getByText('Say why in the note')).toBeVisible();
    await form.getByLabel('Reason').selectOption('already_redeemed');
    await form.getByLabel('Amount').fill('20');
    await form.getByLabel('Note (the seller reads it)').fill('The retailer says it was spent.');
    await form.getByTestId('clawback-submit').click();
    const clawback = dialog.getByTestId('clawback-row');
    await expect(clawback).toHaveCount(1);
    await expect(clawback.getByTestId('clawback-amount')).toHaveText('$20.00');
    await expect(clawback.getByTestId('clawback-reason')).toHaveText('Card already redeemed');
    await expect(clawback.getByTestId('clawback-status')).toHaveText('Owed back');
    await expectNoAxeFindings(admin, 'review dialog with a clawback');
    await admin.keyboard.press('Escape');

    await page.goto('/');
    await expect(page.getByTestId('balance-owed-back')).toHaveText('$20.00');
    await expect(page.getByTestId('balance-paid')).toHaveText('$91.00');

    // 3. A later card pays what is left after what is owed back: $87 less $20.
    const second = await submitCardByApi(page.request, 'Nike');
    await approve(staff.request, second.id);
    const paid = await markSent(staff.request, second.id, `${reference}-2`);
    expect(paid).toMatchObject({ amount: '67.00', netted: '20.00' });
    await expect(page.getByTestId('balance-owed-back')).toHaveText('$0.00');
    // Paid in total counts the Nike card whole: $67 sent and $20 set against what was owed back.
    await expect(page.getByTestId('balance-paid')).toHaveText('$178.00');
    await page.goto('/history');
    await page.getByTestId('history-statement-link').click();
    await expect(rows).toHaveCount(6);
    const kinds = await rows.evaluateAll((r) => r.map((e) => e.getAttribute('data-kind')));
    expect(kinds).toEqual([
      'payment_sent',
      'netting',
      'card_approved',
      'clawback',
      'payment_sent',
      'card_approved',
    ]);
    const netting = page.locator('[data-testid="statement-row"][data-kind="netting"]');
    await expect(netting.getByTestId('statement-description')).toHaveText(
      'Card Nike $100.00: $20.00 of its payout set against what you owed back',
    );
    await expect(rows.nth(0).getByTestId('statement-amount')).toHaveText('-$67.00');
    await expect(rows.nth(0).getByTestId('statement-balance')).toHaveText('$0.00');
    const taken = page.locator('[data-testid="statement-row"][data-kind="clawback"]');
    await expect(taken.getByTestId('statement-description')).toHaveText(
      'Taken back: card already redeemed (card Amazon $100.00)',
    );
    await expect(taken.getByTestId('statement-amount')).toHaveText('-$20.00');
    await expect(taken.getByTestId('statement-balance')).toHaveText('-$20.00');
    await expectNoAxeFindings(page, 'statement with a clawback and its netting');

    // 4. The Books tab: the trial balance balances; a statement file is matched.
    await admin.getByRole('tab', { name: 'Books' }).click();
    await expect(admin.getByTestId('trial-balanced')).toHaveText('Balanced: debits equal credits');
    await expect(admin.getByTestId('trial-debit-total')).toHaveText(
      (await admin.getByTestId('trial-credit-total').textContent())!,
    );
    await expect(admin.getByTestId('trial-account').first()).toBeVisible();
    await expect(admin.getByTestId('books-owed-total')).toHaveText(/^\$[\d,]+\.\d\d$/);

    const today = new Date().toISOString().slice(0, 10);
    const file = [
      'date,amount,reference,payee',
      `${today},91.00,${reference},riley.paypal@example.com`,
      `${today},12.34,NOT-OURS-${reference},someone@example.com`,
    ].join('\n');
    await admin.getByLabel('Payment type').selectOption('paypal');
    await admin.getByLabel('Statement file (CSV)').setInputFiles({
      name: 'paypal-statement.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(file),
    });
    await admin.getByTestId('reconciliation-submit').click();
    const result = admin.getByTestId('reconciliation-result');
    await expect(result.getByTestId('reconciliation-summary')).toHaveText(
      'paypal-statement.csv: 2 lines read, 1 matched to a payment.',
    );
    await expect(result.getByTestId('reconciliation-matched')).toContainText(reference);
    await expect(result.getByTestId('reconciliation-unmatched-lines')).toContainText(
      `NOT-OURS-${reference}`,
    );
    await expect(result.getByTestId('reconciliation-unmatched-payments')).toBeVisible();
    await expectNoAxeFindings(admin, 'Books tab with a reconciliation');

    // The matched line confirmed the payment: the card says so.
    const mine = (await (await page.request.get('/api/transactions')).json()) as {
      id: string;
      paymentStatus: string;
    }[];
    expect(mine.find((t) => t.id === first.id)?.paymentStatus).toBe('confirmed');
    await staff.close();
    await page.context().close();
  }, 180_000);

  for (const theme of ['light', 'dark'] as const) {
    test(`the books' screens in the ${theme} theme, on a desktop and a phone`, async ({
      browser,
    }) => {
      const { page: seller, email } = await sellerPage(browser, theme);
      const staff = await staffContext(browser, { viewport: DESKTOP });
      const card = await submitCardByApi(seller.request, 'Amazon');
      await approve(staff.request, card.id);
      await markSent(staff.request, card.id, `PP-SHOTS-${theme}-${Date.now()}`);
      await staff.request.post(`/api/admin/transactions/${card.id}/clawback`, {
        data: { amount: '15.50', reason: 'balance_differs', note: 'The balance was $84.50.' },
      });
      await approve(staff.request, (await submitCardByApi(seller.request, 'Nike')).id);
      await staff.close();

      for (const [size, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        await seller.setViewportSize(viewport);
        await seller.goto('/');
        await expect(seller.getByTestId('balance-owed-back')).toHaveText('$15.50');
        await expect(seller.getByTestId('balance-owed')).toHaveText('$87.00');
        await expectNoSidewaysScroll(seller);
        await expectNoAxeFindings(seller, `dashboard (${theme}, ${size})`);
        await seller.getByTestId('balance-panel').scrollIntoViewIfNeeded();
        await screenshot(seller, `books-balance-${theme}-${size}`, false);
        await seller.goto('/statement');
        await expect(seller.getByTestId('statement-row')).toHaveCount(4);
        await expectNoSidewaysScroll(seller);
        await expectNoAxeFindings(seller, `statement (${theme}, ${size})`);
        await screenshot(seller, `books-statement-${theme}-${size}`);

        const context = await themedStaffContext(browser, { theme, viewport });
        const admin = await staffPageIn(context);
        const dialog = await openReview(admin, email, 'Amazon');
        await expect(dialog.getByTestId('clawback-row')).toHaveCount(1);
        await dialog.getByTestId('clawback-open').click();
        await expect(dialog.getByTestId('clawback-form')).toBeVisible();
        await dialog.getByTestId('clawback-row').getByTestId('write-off-open').click();
        await expectNoAxeFindings(admin, `clawback form (${theme}, ${size})`);
        await dialog.getByTestId('clawbacks').scrollIntoViewIfNeeded();
        await screenshot(admin, `books-clawback-${theme}-${size}`, false);
        await admin.keyboard.press('Escape');
        await admin.getByRole('tab', { name: 'Books' }).click();
        await expect(admin.getByTestId('trial-balanced')).toBeVisible();
        await expectNoSidewaysScroll(admin);
        await expectNoAxeFindings(admin, `Books tab (${theme}, ${size})`);
        await screenshot(admin, `books-tab-${theme}-${size}`);
        await context.close();
      }
      await seller.context().close();
      // Two sizes of four screens, each checked by axe, on a machine the other tests share.
    }, 240_000);
  }
});
