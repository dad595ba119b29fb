import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { CUSTOMER_PASSWORD, screenshot, test } from './fixtures';

/** A lost session keeps the seller's work (issue 43, item 18; decision 142). */

async function halfWriteTicket(page: Page) {
  await page.goto('/support');
  await page.getByLabel('Subject').fill('Where is my payout?');
  await page.getByLabel('Message').fill('I sold an Amazon card on Monday and');
}

async function signInFromDialog(page: Page, email: string) {
  const dialog = page.getByTestId('auth-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password').fill(CUSTOMER_PASSWORD);
  await dialog.getByRole('button', { name: 'Sign In' }).last().click();
  await expect(dialog).toHaveCount(0);
}

async function expectDraftBack(page: Page) {
  await expect(page.getByRole('heading', { name: 'Contact Support' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/support');
  await expect(page.getByLabel('Subject')).toHaveValue('Where is my payout?');
  await expect(page.getByLabel('Message')).toHaveValue('I sold an Amazon card on Monday and');
}

describe('a lost session', () => {
  test('a sign-out in one tab reaches the other, whose half-written ticket waits for the sign-in', async ({
    customer,
  }) => {
    const first = customer.page;
    const second = await first.context().newPage();
    await halfWriteTicket(second);

    // Tab 1 signs out: tab 2 hears it at once, not at its next request.
    await first.getByTestId('logout').click();
    await expect(second.getByTestId('toast').first()).toContainText('Unauthorized');
    await signInFromDialog(second, customer.account.email);
    await expectDraftBack(second);
    await screenshot(second, 'lost-session-draft-back');

    // Sent, the draft is gone: a reload shows an empty form.
    await second.getByRole('button', { name: 'Submit Ticket' }).click();
    await expect(second.getByTestId('toast').first()).toContainText('Ticket Submitted');
    await second.reload();
    await expect(second.getByLabel('Subject')).toHaveValue('');
  });

  test('a session that ended elsewhere: the submit that hears 401 keeps the draft and comes back to it', async ({
    customer,
  }) => {
    const page = customer.page;
    await halfWriteTicket(page);
    // The session ends on the server (as when it expires, or is ended from another device).
    await page.request.post('/api/logout');
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await signInFromDialog(page, customer.account.email);
    await expectDraftBack(page);
  });

  test('another account signing in on the tab never sees the draft', async ({ customer }) => {
    const page = customer.page;
    await halfWriteTicket(page);
    await page.request.post('/api/logout');
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    const other = `other.${Date.now().toString(36)}@example.com`;
    const made = await page.request.post('/api/signup', {
      data: { email: other, firstName: 'Oth', lastName: 'Er', password: CUSTOMER_PASSWORD },
    });
    expect(made.ok()).toBe(true);
    await page.request.post('/api/logout');
    await signInFromDialog(page, other);
    await expect(page.getByRole('heading', { name: 'Contact Support' })).toBeVisible();
    await expect(page.getByLabel('Subject')).toHaveValue('');
    await expect(page.getByLabel('Message')).toHaveValue('');
  });
});
