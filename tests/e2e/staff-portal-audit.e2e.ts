import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { codeAt } from '../../src/server/modules/auth/two-factor';
import { submitCardByApi } from './api-helpers';
import { expectNoAxeFindings } from './axe';
import {
  DESKTOP,
  expectNoSidewaysScroll,
  linkIn,
  newAppContext,
  PHONE,
  screenshot,
  staffPage,
  staffPageAfterCard,
  THEMES,
  type Theme,
  test,
  themedStaffContext,
  uniqueEmail,
  waitForMail,
} from './fixtures';

/** The staff portal's items of the outside audit (issue 43, items 10, 13, 14 and 16). */
const PASSWORD = 'a long staff password';

async function newPage(browser: Browser, viewport = DESKTOP, theme: Theme = 'light') {
  return (await newAppContext(browser, { viewport, theme })).newPage();
}

/** An owner invites `role`; answers the invitation's link. */
async function invite(owner: Page, role: string) {
  const email = uniqueEmail(role);
  const invited = await owner.request.post('/api/admin/staff/invitations', {
    data: { email, role },
  });
  expect(invited.status()).toBe(201);
  return { email, link: linkIn(await waitForMail(email, /invited/)) };
}

/** The sign-in form at /admin/login, then the authenticator set up (a first sign-in). */
async function firstSignIn(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  // A password check (bcrypt, cost 12) can take seconds on a busy machine.
  await page.getByTestId('totp-qr').waitFor({ timeout: 60_000 });
  const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
  await page.getByLabel('Code from the app').fill(codeAt(secret, Date.now()));
  await page.getByRole('button', { name: 'Turn on and sign in' }).click();
  await page.getByTestId('recovery-codes-saved').click();
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor({ timeout: 60_000 });
}

/** Whether the select's chosen text fits inside it (a native select clips it silently). */
const selectFits = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((select: HTMLSelectElement) => {
    const style = getComputedStyle(select);
    const probe = document.createElement('span');
    probe.style.font = style.font;
    probe.style.whiteSpace = 'pre';
    probe.style.position = 'absolute';
    probe.textContent = select.selectedOptions[0]?.textContent ?? '';
    document.body.append(probe);
    const needed =
      probe.getBoundingClientRect().width +
      Number.parseFloat(style.paddingLeft) +
      Number.parseFloat(style.paddingRight);
    probe.remove();
    return { needed: Math.ceil(needed), width: select.clientWidth };
  });

describe('the staff portal (issue 43)', () => {
  test('item 10: a signed-out staff link goes to the staff sign-in and back to the link; item 14: the invitation names its email and role, and a finance sign-in does not say admin', async ({
    browser,
  }) => {
    const owner = await staffPage(browser);
    const { email, link } = await invite(owner, 'finance');

    // The invitation page says whom it is for, in both themes, wide and narrow.
    for (const theme of THEMES) {
      for (const [size, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const page = await newPage(browser, viewport, theme);
        await page.goto(link);
        const named = page.getByTestId('invitation-for');
        await expect(named).toContainText(`For ${email}, joining as finance.`);
        await expectNoAxeFindings(page, `the invitation page (${theme}, ${size})`);
        await expectNoSidewaysScroll(page);
        await screenshot(page, `audit-invitation-${theme}-${size}`);
        await page.context().close();
      }
    }
    const visitor = await newPage(browser);
    await visitor.goto(link);
    await visitor.getByLabel('First name').fill('Fin');
    await visitor.getByLabel('Last name').fill('Lee');
    await visitor.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await visitor.getByLabel('Repeat the password').fill(PASSWORD);
    await visitor.getByRole('button', { name: 'Create my staff account' }).click();
    await expect(visitor.getByText('Welcome aboard')).toBeVisible();

    // Signed out, the appeal email's link: the staff sign-in, not the customer landing page.
    await visitor.goto('/admin?tab=payouts');
    await expect(visitor.getByRole('heading', { name: 'Admin Portal' })).toBeVisible();
    expect(new URL(visitor.url()).pathname).toBe('/admin/login');
    expect(new URL(visitor.url()).searchParams.get('next')).toBe('/admin?tab=payouts');
    await screenshot(visitor, 'audit-admin-login-return');
    await firstSignIn(visitor, email);
    await expect(visitor.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(new URL(visitor.url()).pathname + new URL(visitor.url()).search).toBe(
      '/admin?tab=payouts',
    );
    await expect(visitor.getByRole('tab', { name: 'Payouts' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(visitor.getByTestId('toast').first()).toContainText(
      'Successfully signed in as finance',
    );
    await expect(visitor.getByTestId('toast').first()).not.toContainText('admin');

    // Any deeper /admin link too; a link out of the portal is not followed after sign-in.
    const stranger = await newPage(browser);
    await stranger.goto('/admin/anything?x=1');
    await expect(stranger.getByRole('heading', { name: 'Admin Portal' })).toBeVisible();
    expect(new URL(stranger.url()).searchParams.get('next')).toBe('/admin/anything?x=1');
  }, 240_000);

  test('item 14: an owner resends a pending invitation from the Staff tab', async ({ browser }) => {
    const owner = await staffPage(browser);
    const { email } = await invite(owner, 'reviewer');
    await owner.getByRole('tab', { name: 'Staff' }).click();
    const row = owner.getByTestId('staff-row').filter({ hasText: email });
    await row.getByTestId('resend-invitation').click();
    await expect(owner.getByTestId('toast').first()).toContainText('Invitation sent again');
    await row.getByTestId('resend-invitation').scrollIntoViewIfNeeded();
    await screenshot(owner, 'audit-staff-resend', false);
  });

  test('item 13: support reads a card as a summary with value, payout and payment status', async ({
    browser,
    customer,
  }) => {
    const owner = await staffPageAfterCard(browser, customer.page);
    const { email, link } = await invite(owner, 'support');
    const token = new URL(link).searchParams.get('token');
    expect(
      (
        await owner.request.post('/api/staff-invitations/accept', {
          data: { token, password: PASSWORD, firstName: 'Sue', lastName: 'Port' },
        })
      ).status(),
    ).toBe(200);
    const support = await newPage(browser);
    await support.goto('/admin/login');
    await firstSignIn(support, email);
    await expect(support.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await support.getByLabel('Search card type, email or ID').fill(customer.account.email);
    await expect(support.getByTestId('upload-row')).toHaveCount(1);
    await support.getByTestId('upload-row').getByRole('button', { name: 'Review' }).click();
    const dialog = support.getByTestId('review-dialog');
    await expect(dialog.getByRole('heading', { name: 'Card summary' })).toBeVisible();
    await expect(dialog).not.toContainText('update status');
    const summary = dialog.getByTestId('card-summary');
    await expect(summary).toContainText('Card Value$100.00');
    await expect(summary).toContainText('Expected Payout$');
    await expect(summary).toContainText('Payment StatusPayment Pending');
    await expect(dialog.getByTestId('save-review')).toHaveCount(0);
    await expectNoAxeFindings(support, 'the support card summary');
    await screenshot(support, 'audit-support-summary', false);
  }, 240_000);

  test('item 16: on a phone every tab shows, the review puts photos and decision first, and the order box is never cut off', async ({
    browser,
    customer,
  }) => {
    await submitCardByApi(customer.page.request);
    for (const theme of THEMES) {
      for (const [size, viewport] of [
        ['desktop', DESKTOP],
        ['tablet', { width: 800, height: 900 }],
        ['phone', PHONE],
      ] as const) {
        const context = await themedStaffContext(browser, { theme, viewport });
        const page = await context.newPage();
        await page.goto('/admin');
        await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
        // Every tab is on screen: none hidden past the edge of a strip with no sign it scrolls.
        const tabs = page.getByTestId('portal-tabs').getByRole('tab');
        // The spec's nine and the Books tab (issue 39) for the owner signed in here.
        await expect(tabs).toHaveCount(10);
        for (const tab of await tabs.all()) {
          const box = (await tab.boundingBox())!;
          expect(box.x, (await tab.textContent()) ?? '').toBeGreaterThanOrEqual(0);
          expect(box.x + box.width, (await tab.textContent()) ?? '').toBeLessThanOrEqual(
            viewport.width,
          );
        }
        // The order box shows its whole choice, at every width.
        const order = await selectFits(page, 'Order');
        expect(order.needed, `Order at ${size}`).toBeLessThanOrEqual(order.width);
        await expectNoSidewaysScroll(page);
        await expectNoAxeFindings(page, `the queue (${theme}, ${size})`);
        await screenshot(page, `audit-queue-${theme}-${size}`, false);

        await page.getByLabel('Search card type, email or ID').fill(customer.account.email);
        await expect(page.getByTestId(size === 'phone' ? 'upload-card' : 'upload-row')).toHaveCount(
          1,
        );
        await page
          .getByRole('button', { name: /^Review / })
          .filter({ visible: true })
          .first()
          .click();
        const dialog = page.getByTestId('review-dialog');
        await expect(dialog.getByTestId('save-review')).toBeVisible();
        const top = async (testId: string) =>
          (await dialog.getByTestId(testId).first().boundingBox())!.y;
        if (size === 'phone') {
          // Photos, then the decision, then the checks.
          expect(await top('card-image')).toBeLessThan(await top('review-checks'));
          expect(await top('quick-approve')).toBeLessThan(await top('review-checks'));
        }
        await expectNoAxeFindings(page, `the review dialog (${theme}, ${size})`);
        await screenshot(page, `audit-review-${theme}-${size}`, false);
        await context.close();
      }
    }
  }, 400_000);
});
