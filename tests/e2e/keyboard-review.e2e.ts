import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { submitCardByApi } from './api-helpers';
import { expectNoAxeFindings } from './axe';
import { type Customer, screenshot, staffPage, test } from './fixtures';

/** The queue narrowed to one customer's cards, with the focus off every field. */
async function queueOf(page: Page, email: string, count: number) {
  await page.getByLabel('Search card type, email or ID').fill(email);
  await expect(page.getByTestId('upload-row')).toHaveCount(count);
  await page.getByRole('heading', { name: 'Admin Dashboard' }).click();
}

/**
 * Moves the queue's highlight with J and K onto the row of `brand`'s card: the queue puts waiting
 * cards first, so a decided card moves below the others once the list is read again, and a test
 * cannot count on a row's place.
 */
async function highlight(page: Page, brand: string) {
  const rows = page.getByTestId('upload-row');
  const current = page.locator('[data-testid=upload-row][aria-current=true]');
  for (let tries = 0; tries < 4; tries++) {
    if ((await current.textContent())?.includes(brand)) return;
    const texts = await rows.allTextContents();
    const target = texts.findIndex((text) => text.includes(brand));
    const at = texts.indexOf((await current.textContent()) ?? '');
    await page.keyboard.press(target < at ? 'k' : 'j');
  }
  await expect(current).toContainText(brand);
}

/**
 * The customer's Amazon and Target cards (submitCardByApi), then the admin page of a new staff
 * context with the queue narrowed to those two (queueOf), and its rows.
 */
async function twoCardsQueued(browser: Browser, customer: { page: Page; account: Customer }) {
  await submitCardByApi(customer.page.request);
  await submitCardByApi(customer.page.request, 'Target');
  const staff = await staffPage(browser);
  await queueOf(staff, customer.account.email, 2);
  return { staff, rows: staff.getByTestId('upload-row') };
}

describe('keyboard review (issue 21, item 4)', () => {
  test('staff approve a card with the keyboard alone, and reject with R', async ({
    browser,
    customer,
  }) => {
    const { staff, rows } = await twoCardsQueued(browser, customer);

    // Typing in a field fires nothing.
    const searchBox = staff.getByLabel('Search card type, email or ID');
    await searchBox.fill('');
    await searchBox.press('j');
    await expect(searchBox).toHaveValue('j');
    await queueOf(staff, customer.account.email, 2);

    // J and K move the selection; Enter opens it.
    await expect(rows.nth(0)).toHaveAttribute('aria-current', 'true');
    await staff.keyboard.press('j');
    await expect(rows.nth(1)).toHaveAttribute('aria-current', 'true');
    await staff.keyboard.press('k');
    await expect(rows.nth(0)).toHaveAttribute('aria-current', 'true');
    await staff.keyboard.press('?');
    const keys = staff.getByTestId('shortcuts-dialog');
    await expect(keys).toContainText('Approve');
    await expectNoAxeFindings(staff, 'the shortcuts dialog');
    await staff.keyboard.press('Escape');
    await expect(keys).toHaveCount(0);

    // Enter opens the highlighted card, wherever the list has put it meanwhile.
    const highlighted = staff.locator('[data-testid=upload-row][aria-current=true]');
    const approved = (await highlighted.textContent())!.includes('Target') ? 'Target' : 'Amazon';
    const other = approved === 'Target' ? 'Amazon' : 'Target';
    await staff.keyboard.press('Enter');
    const dialog = staff.getByTestId('review-dialog');
    await expect(dialog.getByTestId('save-review')).toBeVisible();
    await expect(dialog.getByTestId('review-subject')).toContainText(approved);
    const expected = (await dialog.getByTestId('review-expected').textContent())!;
    // A: approved in one key, paid the expected payout.
    await staff.keyboard.press('a');
    await expect(staff.getByTestId('toast').first()).toContainText('Transaction updated');
    await expect(dialog).toHaveCount(0);
    await expect(rows.filter({ hasText: approved })).toContainText('Processing');

    // R: the other card, rejected; the reason picker takes the focus.
    await highlight(staff, other);
    await staff.keyboard.press('Enter');
    await expect(dialog.getByTestId('review-subject')).toContainText(other);
    await expect(dialog.getByTestId('save-review')).toBeVisible();
    await staff.keyboard.press('r');
    await expect(dialog.getByLabel('Status', { exact: true })).toHaveValue('rejected');
    await expect(dialog.getByLabel('Rejection Reason')).toBeFocused();
    await screenshot(staff, 'review-reject-by-key');

    // The photo viewer: zoom, rotate; its arrows are its own.
    await dialog.getByRole('button', { name: 'View image 1 larger' }).click();
    const viewer = staff.getByTestId('image-viewer');
    await expect(viewer).toContainText('1 / 1');
    await viewer.getByRole('button', { name: 'Rotate' }).click();
    await viewer.getByRole('button', { name: 'Zoom' }).click();
    await expect(viewer.getByRole('button', { name: 'Fit' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await staff.keyboard.press('ArrowRight');
    await expect(viewer).toContainText('1 / 1');
    await expectNoAxeFindings(staff, 'the photo viewer');
    await screenshot(staff, 'review-photo-viewer');
    await staff.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
    // Approved card's amount is the quote.
    await staff.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await highlight(staff, approved);
    await staff.keyboard.press('Enter');
    await expect(dialog.getByTestId('review-subject')).toContainText(approved);
    await expect(dialog.getByLabel('Payment Amount')).toHaveValue(expected.replace('$', ''));
    // Mark paid: the reference field comes and takes the focus; one save pays the card.
    await expect(dialog.getByTestId('quick-approve')).toHaveAttribute('disabled', '');
    await dialog.getByTestId('quick-mark-paid').click();
    await expect(dialog.getByLabel('Payout Reference')).toBeFocused();
    await staff.keyboard.type('TX-KEYS-1');
    await dialog.getByTestId('save-review').click();
    await expect(dialog).toHaveCount(0);
    await expect(rows.filter({ hasText: approved })).toContainText('Sent');
  });

  test('after a card is closed, Enter opens the highlighted row, and the dialog names its card (issue 43, item 9)', async ({
    browser,
    customer,
  }) => {
    const { staff, rows } = await twoCardsQueued(browser, customer);
    const dialog = staff.getByTestId('review-dialog');
    const brandOf = async (index: number) =>
      (await rows.nth(index).textContent())!.includes('Target') ? 'Target' : 'Amazon';
    const [first, second] = [await brandOf(0), await brandOf(1)];
    expect(first).not.toBe(second);

    // Review on row 1 by mouse; the dialog says which card it is.
    await rows.nth(0).getByRole('button', { name: 'Review' }).click();
    const subject = dialog.getByTestId('review-subject');
    await expect(subject).toContainText(`${first} $100.00 from ${customer.account.email}`);
    await expect(dialog.getByTestId('save-review')).toBeVisible();
    await staff.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(rows.nth(0).getByRole('button', { name: 'Review' })).toBeFocused();

    // J: row 2 is highlighted and has the focus, so Enter opens row 2, not row 1 again.
    await staff.keyboard.press('j');
    await expect(rows.nth(1)).toHaveAttribute('aria-current', 'true');
    await expect(rows.nth(1).getByRole('button', { name: 'Review' })).toBeFocused();
    await staff.keyboard.press('Enter');
    await expect(subject).toContainText(`${second} $100.00 from ${customer.account.email}`);
    await expect(dialog.getByTestId('save-review')).toBeVisible();
    await staff.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    // The closed dialog hands the focus back to the button that opened it; then K moves it.
    await expect(rows.nth(1).getByRole('button', { name: 'Review' })).toBeFocused();
    // K back to row 1: Enter opens row 1.
    await staff.keyboard.press('k');
    await expect(rows.nth(0).getByRole('button', { name: 'Review' })).toBeFocused();
    await staff.keyboard.press('Enter');
    await expect(subject).toContainText(first);
    await expectNoAxeFindings(staff, 'the review dialog naming its card');
  });

  test('a reviewer reads the card code in full, told each view is recorded', async ({
    browser,
    customer,
  }) => {
    await submitCardByApi(customer.page.request, 'Amazon', 'egift', {
      cardCode: 'X9Q2-7LMN-4455',
    });
    const staff = await staffPage(browser);
    await queueOf(staff, customer.account.email, 1);
    await staff.keyboard.press('Enter');
    const dialog = staff.getByTestId('review-dialog');
    await expect(dialog.getByTestId('review-card-code')).toHaveText('X9Q2-7LMN-4455');
    await expect(dialog).toContainText('Each view is recorded in the audit log.');
    await dialog.getByTestId('review-card-code').scrollIntoViewIfNeeded();
    await screenshot(staff, 'review-card-code', false);
  });
});
