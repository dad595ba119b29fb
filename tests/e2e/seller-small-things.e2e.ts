import { describe, expect } from 'vitest';
import { submitCardByApi } from './api-helpers';
import { expectNoAxeFindings } from './axe';
import {
  reviewAsStaff,
  reviewCardByApi,
  screenshot,
  staffContext,
  staffPage,
  test,
} from './fixtures';

/** Smaller things a seller (and staff) meet (issue 43, item 20, in part). */
describe('smaller things', () => {
  test('a double click on "Send appeal" sends one appeal', async ({ browser, customer }) => {
    const page = customer.page;
    const card = await submitCardByApi(page.request, 'Target');
    expect(
      await reviewAsStaff(browser, card.id, {
        status: 'rejected',
        rejectionReason: 'code_invalid',
      }),
    ).toBe(200);

    let appeals = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/${card.id}/appeal`)) appeals++;
    });
    await page.goto(`/history?card=${card.id}`);
    await page.getByTestId('transaction-details').getByTestId('appeal-button').click();
    const dialog = page.getByTestId('appeal-dialog');
    await dialog.getByLabel('Your message').fill('The code works: I checked it in the store.');
    await page.getByRole('button', { name: 'Send appeal' }).dblclick();
    await expect(page.getByTestId('toast').first()).toContainText('Appeal sent');
    await expect(page.getByTestId('appeal-status')).toContainText('waiting for a decision');
    expect(appeals).toBe(1);
  });

  test('a paid revised offer shows its amount, and an overturned card reviewed again says so', async ({
    browser,
    customer,
  }) => {
    const page = customer.page;
    const staff = await staffContext(browser);
    // A revised offer accepted, then paid: the detail expects the offer, not the old quote.
    const offered = await submitCardByApi(page.request);
    const offer = await staff.request.post(`/api/admin/transactions/${offered.id}/offer`, {
      data: { verifiedValue: '40', note: 'The card holds $40.00.' },
    });
    expect(offer.status()).toBe(201);
    const accept = await page.request.post(`/api/transactions/${offered.id}/offer/accept`);
    expect(accept.status()).toBe(200);
    const accepted = await accept.json();
    expect(accepted.offer.status).toBe('accepted');
    const paid = await reviewCardByApi(staff.request, offered.id, {
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: accepted.offer.amount,
    });
    expect(paid.status()).toBe(200);
    await page.goto(`/history?card=${offered.id}`);
    const details = page.getByTestId('transaction-details');
    await expect(details.getByTestId('detail-expected')).toHaveText(
      `$${accepted.offer.amount} (revised offer)`,
    );
    await expect(details.getByTestId('detail-payment')).toHaveText(`$${accepted.offer.amount}`);
    await page.keyboard.press('Escape');

    // Rejected, appealed, overturned, then approved: no "back in review" beside Approved.
    const appealed = await submitCardByApi(page.request, 'Target');
    await reviewCardByApi(staff.request, appealed.id, {
      status: 'rejected',
      rejectionReason: 'code_invalid',
    });
    expect(
      (
        await page.request.post(`/api/transactions/${appealed.id}/appeal`, {
          data: { message: 'The code works: I checked it in the store.', imageUrls: [] },
        })
      ).status(),
    ).toBe(201);
    expect(
      (
        await staff.request.post(`/api/admin/transactions/${appealed.id}/appeal/decision`, {
          data: { decision: 'overturned' },
        })
      ).status(),
    ).toBe(200);
    expect(
      (await reviewCardByApi(staff.request, appealed.id, { status: 'processing' })).status(),
    ).toBe(200);
    await staff.close();
    await page.goto(`/history?card=${appealed.id}`);
    const again = page.getByTestId('transaction-details');
    await expect(again.getByTestId('appeal-status')).toContainText('the card was reviewed again');
    await expect(again.getByTestId('appeal-status')).not.toContainText('back in review');
    await expect(again.getByTestId('rejection-reason')).toHaveCount(0);
    await expect(again.getByTestId('card-timeline')).toContainText('Approved');
    await screenshot(page, 'small-things-overturned-then-approved', false);
  });

  test('the quote names a value below the minimum, and a refused photo is named under the photos', async ({
    customer,
  }) => {
    const page = customer.page;
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/upload');
    await page.getByLabel('Gift Card Brand').selectOption('Amazon');
    await page.getByLabel('Card Value (USD)').fill('10');
    await expect(page.getByTestId('quote-problem')).toHaveText('We buy Amazon cards from $25.');
    await page.getByLabel('Card Value (USD)').fill('100');
    await expect(page.getByTestId('expected-payout')).toBeVisible();

    // Over 10 MB: named in the form, under the photos, covering nothing.
    await page.getByTestId('card-images-input').setInputFiles({
      name: 'huge-scan.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
    });
    const refused = page.getByTestId('files-refused');
    await expect(refused).toHaveText('This file was not added: huge-scan.png is larger than 10MB');
    await expect(page.getByTestId('toast')).toHaveCount(0);
    await expect(page.getByLabel('Card code / PIN (optional)')).toBeVisible();
    await screenshot(page, 'small-things-refused-photo-375', false);
  });

  test("Back closes a card's detail and returns to the last Profile tab, within the app", async ({
    customer,
  }) => {
    const page = customer.page;
    const card = await submitCardByApi(page.request);
    await page.goto('/dashboard');
    await page.goto('/history');
    await page
      .getByRole('button', { name: /View details/ })
      .first()
      .click();
    const details = page.getByTestId('transaction-details');
    await expect(details).toBeVisible();
    expect(new URL(page.url()).search).toBe(`?card=${card.id}`);
    // Back closes the detail and stays in History; Forward opens it again.
    await page.goBack();
    await expect(details).toHaveCount(0);
    expect(new URL(page.url()).pathname).toBe('/history');
    await page.goForward();
    await expect(details).toBeVisible();
    // Closing it steps back too: one more Back leaves History for where the seller came from.
    await page.keyboard.press('Escape');
    await expect(details).toHaveCount(0);
    expect(new URL(page.url()).search).toBe('');
    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard');

    await page.goto('/profile');
    await page.getByRole('tab', { name: /Security/ }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?tab=security');
    await page.getByRole('tab', { name: /Privacy/ }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?tab=privacy');
    await page.goBack();
    await expect(page.getByRole('tab', { name: /Security/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.goBack();
    await expect(page.getByRole('tab', { name: /Profile Info/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  test('declining a revised offer asks first', async ({ browser, customer }) => {
    const page = customer.page;
    const card = await submitCardByApi(page.request);
    const staff = await staffContext(browser);
    const offered = await staff.request.post(`/api/admin/transactions/${card.id}/offer`, {
      data: { verifiedValue: '40', note: 'The card holds $40.00.' },
    });
    expect(offered.status()).toBe(201);
    await staff.close();

    await page.goto(`/history?card=${card.id}`);
    const details = page.getByTestId('transaction-details');
    await details.getByTestId('decline-offer').click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Decline the revised offer?');
    await expectNoAxeFindings(page, 'the decline confirmation');
    await screenshot(page, 'small-things-decline-confirm', false);
    // Not yet: Cancel leaves the offer waiting.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(details.getByTestId('revised-offer')).toBeVisible();
    await details.getByTestId('decline-offer').click();
    await page.getByRole('button', { name: 'Decline and reject the card' }).click();
    await expect(details.getByTestId('offer-outcome')).toHaveText(
      'You declined the revised offer.',
    );
  });

  test('the staff queue says "No payout" for a rejected card, and a decided card’s age stops', async ({
    browser,
    customer,
  }) => {
    const card = await submitCardByApi(customer.page.request);
    const staff = await staffPage(browser);
    const rejected = await reviewCardByApi(staff.request, card.id, {
      status: 'rejected',
      rejectionReason: 'code_invalid',
    });
    expect(rejected.status()).toBe(200);
    await staff.getByLabel('Search card type, email or ID').fill(customer.account.email);
    const row = staff.getByTestId('upload-row');
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('queue-no-payout')).toHaveText('No payout');
    await expect(row).not.toContainText('Payment Pending');
    await expect(row.getByTestId('card-age')).toHaveAttribute(
      'title',
      'Waited this long for its first decision',
    );
  });
});
