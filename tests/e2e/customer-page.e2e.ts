import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { submitCardByApi } from './api-helpers';
import { expectNoAxeFindings } from './axe';
import {
  expectNoSidewaysScroll,
  PHONE,
  screenshot,
  staffPage,
  test,
  themedStaffContext,
} from './fixtures';

/** Issue 43 item 15: a page per customer in the staff portal. */
const CUSTOMER_PATH = /^\/admin\/users\/[0-9a-f-]{36}$/;
const SECTIONS = [
  'Cards',
  'Payouts',
  'Payment methods',
  'Verification',
  'Standing',
  'Sessions',
  'Staff notes',
  'Chat',
  'Tickets',
];

async function expectEverySection(page: Page) {
  await expect(page.getByTestId('customer-page')).toBeVisible();
  for (const name of SECTIONS) {
    await expect(page.getByRole('heading', { name, exact: true, level: 2 })).toBeVisible();
  }
}

describe('the customer page', () => {
  test('staff open a customer from the users tab and from a review, see each section and leave a note', async ({
    customer: { page, account },
    browser,
  }) => {
    const card = await submitCardByApi(page.request);
    const question = `Is my Amazon card ok? (${account.email})`;
    await page.request.post('/api/chat/messages', { data: { message: question } });
    await page.request.post('/api/support-tickets', {
      data: { email: account.email, subject: 'About my Amazon card', message: 'Any news?' },
    });

    // From the Users tab: the customer's name opens their page.
    const admin = await staffPage(browser);
    await admin.getByRole('tab', { name: 'Users' }).click();
    const userRow = admin.getByTestId('user-row').filter({ hasText: account.email });
    await userRow.getByRole('link', { name: account.email, exact: true }).click();
    await expect.poll(() => new URL(admin.url()).pathname).toMatch(CUSTOMER_PATH);
    await expectEverySection(admin);
    await expect(admin.getByRole('heading', { level: 1 })).toHaveText(
      `${account.firstName} ${account.lastName}`,
    );
    const cards = admin.getByTestId('customer-cards');
    await expect(cards.getByTestId('customer-card')).toHaveCount(1);
    await expect(cards).toContainText(card.id.slice(0, 8));
    await expect(admin.getByTestId('customer-payment-methods')).toContainText(
      'riley.paypal@example.com',
    );
    await expect(admin.getByTestId('customer-chat')).toContainText(question);
    await expect(admin.getByTestId('customer-tickets')).toContainText('About my Amazon card');
    await expect(admin.getByTestId('customer-standing')).toContainText('Never suspended or closed');
    await expect(admin.getByTestId('customer-sessions')).not.toContainText('Signed in nowhere');

    // A note: empty is refused in words, then one is kept and listed.
    const notes = admin.getByTestId('customer-notes');
    await notes.getByRole('button', { name: 'Add note' }).click();
    await expect(notes).toContainText('Note is required');
    await notes
      .getByLabel('Add a note for staff')
      .fill('Called: the card was a gift from a cousin.');
    await notes.getByRole('button', { name: 'Add note' }).click();
    await expect(notes.getByTestId('customer-note')).toHaveCount(1);
    await expect(notes.getByTestId('customer-note')).toContainText(
      'Called: the card was a gift from a cousin.',
    );
    await expect(notes.getByLabel('Add a note for staff')).toHaveValue('');
    await expectNoAxeFindings(admin, 'the customer page');

    // Back to the portal, then from a review: the dialog's "Submitted By" opens the same page.
    await admin.getByRole('link', { name: 'All customers' }).click();
    await admin.getByRole('tab', { name: 'User Uploads' }).click();
    await admin.getByLabel('Search card type, email or ID').fill(account.email);
    await expect(admin.getByTestId('upload-row')).toHaveCount(1);
    await admin.getByTestId('upload-row').getByRole('button', { name: 'Review' }).click();
    const dialog = admin.getByTestId('review-dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('customer-link').click();
    await expect.poll(() => new URL(admin.url()).pathname).toMatch(CUSTOMER_PATH);
    await expectEverySection(admin);
    // The note left a moment ago is there for every staff member.
    await expect(admin.getByTestId('customer-note')).toContainText('gift from a cousin');

    // The chat's customer links to their cards on this page.
    await admin.goto('/admin?tab=chat');
    await admin.getByTestId('conversation').filter({ hasText: question }).click();
    await admin
      .getByRole('link', { name: `Their cards (${account.firstName} ${account.lastName})` })
      .click();
    await expect.poll(() => new URL(admin.url()).hash).toBe('#cards');
    expect(new URL(admin.url()).pathname).toMatch(CUSTOMER_PATH);
    // Scrolled to the cards: their section's top is on the screen.
    await expect
      .poll(() =>
        admin.getByTestId('customer-cards').evaluate((e) => {
          const top = e.getBoundingClientRect().top;
          return top >= 0 && top < window.innerHeight;
        }),
      )
      .toBe(true);
  });

  test('a section longer than a page shows the rest on Show more', async ({
    customer,
    browser,
  }) => {
    const staff = await staffPage(browser);
    await staff.getByRole('tab', { name: 'Users' }).click();
    const href = await staff
      .getByTestId('user-row')
      .filter({ hasText: customer.account.email })
      .getByRole('link', { name: customer.account.email, exact: true })
      .getAttribute('href');
    for (let i = 1; i <= 27; i++) {
      const response = await staff.request.post(`${href!.replace('/admin', '/api/admin')}/notes`, {
        data: { body: `Note number ${i}` },
      });
      expect(response.status()).toBe(201);
    }
    await staff.goto(href!);
    const notes = staff.getByTestId('customer-notes');
    await expect(notes.getByTestId('customer-note')).toHaveCount(25);
    await expect(notes.getByTestId('customer-note').first()).toContainText('Note number 27');
    await notes.getByRole('button', { name: 'Show more notes' }).click();
    await expect(notes.getByTestId('customer-note')).toHaveCount(27);
    await expect(notes.getByTestId('customer-note').last()).toContainText('Note number 1');
    await expect(notes.getByRole('button', { name: 'Show more notes' })).toHaveCount(0);
  });

  test('an unknown customer says so', async ({ browser }) => {
    const admin = await staffPage(browser);
    await admin.goto('/admin/users/00000000-0000-4000-8000-000000000000');
    await expect(admin.getByTestId('customer-missing')).toHaveText('No customer has this id.');
    await admin.goto('/admin/users/not-an-id');
    await expect(admin.getByTestId('customer-missing')).toHaveText('No customer has this id.');
  });

  test('looks right in light and dark, at 1280 and 375 px, axe clean', async ({
    customer: { page, account },
    browser,
  }) => {
    await submitCardByApi(page.request);
    await submitCardByApi(page.request, 'Steam');
    await page.request.post('/api/chat/messages', { data: { message: 'Hello there' } });
    const staff = await staffPage(browser);
    await staff.getByRole('tab', { name: 'Users' }).click();
    const link = staff
      .getByTestId('user-row')
      .filter({ hasText: account.email })
      .getByRole('link', { name: account.email, exact: true });
    const href = await link.getAttribute('href');
    expect(href).toMatch(CUSTOMER_PATH);
    await staff.request.post(`${href!.replace('/admin', '/api/admin')}/notes`, {
      data: {
        body: 'Prefers email over chat. A long note wraps on a phone without pushing the page sideways: '.repeat(
          3,
        ),
      },
    });
    await staff.context().close();
    for (const theme of ['light', 'dark'] as const) {
      for (const [size, viewport] of [
        ['desktop', { width: 1280, height: 800 }],
        ['phone', PHONE],
      ] as const) {
        const context = await themedStaffContext(browser, { theme, viewport });
        const view = await context.newPage();
        await view.goto(href!);
        await expectEverySection(view);
        await expect(view.getByTestId('customer-card')).toHaveCount(2);
        await expectNoAxeFindings(view, `the customer page (${theme}, ${size})`);
        await expectNoSidewaysScroll(view);
        await screenshot(view, `customer-page-${theme}-${size}`);
        await context.close();
      }
    }
  });
});
