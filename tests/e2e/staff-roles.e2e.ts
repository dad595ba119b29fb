import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { codeAt } from '../../src/server/modules/auth/two-factor';
import { submitCardByApi } from './api-helpers';
import { expectNoAxeFindings } from './axe';
import {
  baseURL,
  DESKTOP,
  expectNoSidewaysScroll,
  linkIn,
  newAppContext,
  PHONE,
  screenshot,
  staffPage,
  staffPageAfterCard,
  test,
  themedStaffContext,
  uniqueEmail,
  waitForMail,
} from './fixtures';

const PASSWORD = 'a long staff password';

async function openStaffTab(page: Page) {
  await page.getByRole('tab', { name: 'Staff' }).click();
  await expect(page.getByTestId('staff-table')).toBeVisible();
}

/** The first sign-in of an invited staff member: password, then the authenticator set up. */
async function firstSignIn(page: Page, email: string) {
  await page.goto('/admin/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByTestId('totp-qr')).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
  await page.getByLabel('Code from the app').fill(codeAt(secret, Date.now()));
  await page.getByRole('button', { name: 'Turn on and sign in' }).click();
  await expect(page.getByTestId('recovery-code')).toHaveCount(10);
  await page.getByTestId('recovery-codes-saved').click();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
}

async function newPage(browser: Browser, viewport = DESKTOP) {
  return (await newAppContext(browser, { viewport })).newPage();
}

describe('staff roles and invitations', () => {
  test('an owner invites a reviewer, who accepts, enrols two-factor, reaches the queue and sees a card the owner is reviewing', async ({
    browser,
    customer,
  }) => {
    const owner = await staffPage(browser);
    await openStaffTab(owner);
    const email = uniqueEmail('reviewer');
    await owner.getByTestId('invite-staff').click();
    const dialog = owner.getByTestId('invite-dialog');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Role').selectOption('reviewer');
    await expectNoAxeFindings(owner, 'the invite dialog');
    await dialog.getByTestId('send-invitation').click();
    await expect(owner.getByTestId('toast')).toContainText('Invitation sent');
    const row = owner.getByTestId('staff-row').filter({ hasText: email });
    await expect(row).toContainText('Invited');

    const link = linkIn(await waitForMail(email, /invited to join the Cardbridge staff/));
    expect(link.startsWith(`${baseURL()}/staff-invitation?token=`)).toBe(true);
    const invitee = await newPage(browser);
    await invitee.goto(link);
    await expect(invitee.getByRole('heading', { name: 'Join the staff' })).toBeVisible();
    await expectNoAxeFindings(invitee, 'the accept-invitation page');
    await invitee.getByLabel('First name').fill('Rae');
    await invitee.getByLabel('Last name').fill('Viewer');
    await invitee.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await invitee.getByLabel('Repeat the password').fill(PASSWORD);
    await invitee.getByRole('button', { name: 'Create my staff account' }).click();
    await expect(invitee.getByRole('heading', { name: 'Welcome aboard' })).toBeVisible();
    await screenshot(invitee, 'staff-invitation-accepted');
    await invitee.getByRole('link', { name: 'Sign in to the staff portal' }).click();
    await firstSignIn(invitee, email);
    // The reviewer's portal: the queue and verification, no payouts, rates or staff.
    await expect(invitee.getByRole('tab', { name: 'User Uploads' })).toBeVisible();
    await expect(invitee.getByRole('tab', { name: 'Verification' })).toBeVisible();
    for (const hidden of ['Payouts', 'Books', 'Staff', 'Tickets', 'Chat Support']) {
      await expect(invitee.getByRole('tab', { name: hidden })).toHaveCount(0);
    }
    await expect(
      invitee.getByTestId('uploads-table').or(invitee.getByTestId('uploads-empty')),
    ).toBeVisible();

    await owner.reload();
    await openStaffTab(owner);
    await expect(row).toContainText('Rae Viewer');
    await expect(row).toContainText('Active');
    await expect(row.getByText('On', { exact: true })).toBeVisible();

    // Claimed reviews (decision 078): the owner opens a card; the reviewer sees who has it.
    await submitCardByApi(customer.page.request);
    const search = async (page: Page) => {
      await page.getByRole('tab', { name: 'User Uploads' }).click();
      await page.getByLabel('Search card type, email or ID').fill(customer.account.email);
      await expect(page.getByTestId('upload-row')).toHaveCount(1);
    };
    await search(owner);
    await owner.getByTestId('upload-row').getByRole('button', { name: 'Review' }).click();
    await expect(owner.getByTestId('save-review')).toBeVisible();
    await search(invitee);
    const claimed = invitee.getByTestId('upload-row').getByTestId('claim-badge');
    await expect(claimed).toContainText('In review by');
    await invitee.getByTestId('upload-row').getByRole('button', { name: 'Review' }).click();
    const notice = invitee.getByTestId('claim-notice');
    await expect(notice).toContainText('In review by');
    await expectNoAxeFindings(invitee, 'the review dialog of a claimed card');
    await screenshot(invitee, 'review-claimed-by-another');
    await notice.getByRole('button', { name: 'Take over' }).click();
    await expect(notice).toHaveCount(0);
    // The owner's queue now names the reviewer.
    await owner.keyboard.press('Escape');
    await expect(owner.getByTestId('upload-row').getByTestId('claim-badge')).toContainText(
      'Rae Viewer',
    );
  });

  test('a finance user sees Payouts, and no status change in a card', async ({
    browser,
    customer,
  }) => {
    const owner = await staffPageAfterCard(browser, customer.page);
    const email = uniqueEmail('finance');
    const invited = await owner.request.post('/api/admin/staff/invitations', {
      data: { email, role: 'finance' },
    });
    expect(invited.status()).toBe(201);
    const token = new URL(linkIn(await waitForMail(email, /invited/))).searchParams.get('token');
    const accepted = await owner.request.post('/api/staff-invitations/accept', {
      data: { token, password: PASSWORD, firstName: 'Fin', lastName: 'Ance' },
    });
    expect(accepted.status()).toBe(200);

    const finance = await newPage(browser);
    await firstSignIn(finance, email);
    await expect(finance.getByRole('tab', { name: 'Payouts' })).toBeVisible();
    await expect(finance.getByRole('tab', { name: 'Books' })).toBeVisible();
    for (const hidden of ['Staff', 'Users', 'Verification', 'Chat Support', 'Tickets']) {
      await expect(finance.getByRole('tab', { name: hidden })).toHaveCount(0);
    }
    await finance.getByLabel('Search card type, email or ID').fill(customer.account.email);
    await expect(finance.getByTestId('upload-row')).toHaveCount(1);
    await finance.getByTestId('upload-row').getByRole('button', { name: 'Review' }).click();
    const dialog = finance.getByTestId('review-dialog');
    await expect(dialog.getByTestId('review-read-only')).toBeVisible();
    await expect(dialog.getByTestId('save-review')).toHaveCount(0);
    await expect(dialog.getByLabel('Status', { exact: true })).toHaveCount(0);
    await finance.keyboard.press('Escape');
    await finance.getByRole('tab', { name: 'Payouts' }).click();
    await expect(finance.getByTestId('export-payouts')).toBeVisible();
    await screenshot(finance, 'staff-roles-finance-payouts');
  });

  test('the Staff tab: axe clean and fits, 1280 and 375 px, light and dark', async ({
    browser,
  }) => {
    for (const theme of ['light', 'dark'] as const) {
      for (const [size, viewport] of [
        ['desktop', { width: 1280, height: 800 }],
        ['phone', PHONE],
      ] as const) {
        const context = await themedStaffContext(browser, { theme, viewport });
        const page = await context.newPage();
        await page.goto('/admin');
        await openStaffTab(page);
        await expectNoAxeFindings(page, `the Staff tab (${theme}, ${size})`);
        await expectNoSidewaysScroll(page);
        await screenshot(page, `staff-tab-${theme}-${size}`);
        await page.getByTestId('invite-staff').click();
        await expect(page.getByTestId('invite-dialog')).toBeVisible();
        await screenshot(page, `staff-invite-dialog-${theme}-${size}`, false);
        await context.clearCookies();
        await page.goto('/staff-invitation?token=shown-for-the-screenshot');
        await expect(page.getByRole('heading', { name: 'Join the staff' })).toBeVisible();
        await expectNoAxeFindings(page, `the accept-invitation page (${theme}, ${size})`);
        await expectNoSidewaysScroll(page);
        await screenshot(page, `staff-invitation-${theme}-${size}`);
        await context.close();
      }
    }
  });
});
