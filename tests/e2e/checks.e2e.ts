import type { APIRequestContext } from 'playwright-core';
import { describe, expect } from 'vitest';
import { noiseImage } from '../lib/noise-image';
import { addPaypalByApi, uploadPhotoByApi } from './api-helpers';
import {
  baseURL,
  CUSTOMER_PASSWORD,
  screenshot,
  staffContext,
  test,
  uniqueEmail,
} from './fixtures';

/** A photo no other test uploads: pixels from the current time. */
const freshPhoto = () => noiseImage(Date.now() & 0x7fffffff, 160, 100);

async function sell(request: APIRequestContext, photo: Buffer) {
  const method = await addPaypalByApi(request, 'Card Seller', 'seller@example.com');
  const objectPath = await uploadPhotoByApi(request, photo);
  const created = await request.post('/api/transactions', {
    data: {
      cardType: 'Target',
      cardValue: '150',
      cardCondition: 'brand_new',
      cardFormat: 'physical',
      paymentMethodId: method.id,
      imageUrls: [objectPath],
    },
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as { id: string };
}

describe('automated checks', () => {
  test('staff see the flag on a duplicate upload and open the other card from the Review dialog', async ({
    customer,
    browser,
  }) => {
    const photo = await freshPhoto();
    const first = await sell(customer.page.request, photo);

    const secondEmail = uniqueEmail('resold');
    const second = await browser.newContext({ baseURL: baseURL() });
    await second.request.post('/api/signup', {
      data: {
        email: secondEmail,
        password: CUSTOMER_PASSWORD,
        firstName: 'Sam',
        lastName: 'Resold',
      },
    });
    await sell(second.request, photo);
    await second.close();

    const staff = await (await staffContext(browser)).newPage();
    await staff.goto('/admin');
    await staff.getByLabel('Search card type, email or ID').fill(secondEmail);
    const row = staff.getByTestId('upload-row');
    await expect(row).toHaveCount(1);
    const flag = row.getByTestId('validation-flag');
    await expect(flag).toHaveAttribute('aria-label', /Same photo on another card/);
    await flag.hover();
    await expect(staff.getByRole('tooltip')).toContainText('Same photo on another card');
    await screenshot(staff, 'admin-queue-flag', false);

    await staff.getByLabel('Filter by automated checks').selectOption('flagged');
    await expect(row).toHaveCount(1);

    await row.getByRole('button', { name: 'Review' }).click();
    const dialog = staff.getByTestId('review-dialog');
    const duplicate = dialog.getByTestId('check').filter({ hasText: 'Same photo on another card' });
    await expect(duplicate).toHaveAttribute('data-status', 'flagged');
    await expect(duplicate).toContainText(first.id.slice(0, 8));
    // A new account is information, not a flag.
    await expect(dialog.getByTestId('check').filter({ hasText: 'New account' })).toHaveAttribute(
      'data-status',
      'info',
    );
    await screenshot(staff, 'admin-review-checks', false);
    await duplicate.getByRole('button', { name: `Open card ${first.id.slice(0, 8)}` }).click();
    await expect(dialog).toContainText(customer.account.email);
    await expect(
      dialog.getByTestId('check').filter({ hasText: 'Same photo on another card' }),
    ).toHaveAttribute('data-status', 'passed');
    await staff.context().close();
  });
});
