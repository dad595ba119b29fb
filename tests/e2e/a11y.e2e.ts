import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { submitCardByApi } from './api-helpers';
import { axeFindings } from './axe';
import {
  CUSTOMER_PASSWORD,
  catchFileChoosers,
  linkIn,
  newAppContext,
  PHONE,
  reviewCardByApi,
  screenshot,
  signInAsStaff,
  signUpByApi,
  staffContext,
  type Theme,
  test,
  unenrolledStaffCredentials,
  uniqueEmail,
  waitForMail,
} from './fixtures';
import { findCutOff } from './layout';

/**
 * Accessibility and layout, page by page: axe-core finds nothing on any page or dialog in either
 * theme, everything can be reached by keyboard, focus goes back to what opened a dialog, and no
 * customer or staff page is wider than a 375 px phone.
 */

const CARD_IMAGE = path.join(import.meta.dirname, '..', 'fixtures', 'card-front.jpg');

/** A page of a new context, in `theme` (light unless given) and `viewport`. */
async function open(
  browser: Browser,
  options: { theme?: Theme; viewport?: { width: number; height: number } } = {},
) {
  const context = await newAppContext(browser, { ...options, theme: options.theme ?? 'light' });
  return context.newPage();
}

/** A customer with a PayPal method, a submitted card and a chat message, signed in. */
async function customerWithData(page: Page) {
  const email = uniqueEmail('a11y');
  await signUpByApi(page.request, { email, firstName: 'Ada', lastName: 'Lovelace' });
  await submitCardByApi(page.request);
  await page.request.post('/api/chat/messages', {
    data: { message: 'Is my card received?', senderType: 'user' },
  });
  await page.request.post('/api/support-tickets', {
    data: { email, subject: 'Payout question', message: 'When am I paid?', attachmentUrl: null },
  });
  return email;
}

const signInStaff = (page: Page) => signInAsStaff(page.context());

/** Collects axe findings state by state, so one run names every problem. */
function recorder(page: Page, theme: Theme) {
  const findings: string[] = [];
  return {
    findings,
    check: async (where: string) => {
      for (const finding of await axeFindings(page))
        findings.push(`[${theme}] ${where}: ${finding}`);
    },
  };
}

const dialog = (page: Page) => page.getByRole('dialog');
const closeDialog = async (page: Page) => {
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
};

describe('accessibility', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`public pages and the sign-in dialog have no axe findings (${theme})`, async ({
      browser,
    }) => {
      const page = await open(browser, { theme });
      const { findings, check } = recorder(page, theme);
      for (const url of ['/', '/terms', '/privacy', '/admin/login']) {
        await page.goto(url);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await check(url);
      }
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page.getByText('Invalid email address')).toBeVisible();
      await check('/admin/login with errors');
      await page.goto('/');
      await page.getByTestId('header-signin').click();
      await expect(dialog(page)).toBeVisible();
      await check('sign-in dialog');
      await dialog(page).getByRole('button', { name: 'Sign In' }).last().click();
      await expect(dialog(page).getByText('Invalid email address')).toBeVisible();
      await check('sign-in dialog with errors');
      await dialog(page).getByTestId('forgot-password').click();
      await dialog(page).getByRole('button', { name: 'Send reset link' }).click();
      await expect(dialog(page).getByText('Invalid email address')).toBeVisible();
      await check('forgot password with errors');
      await dialog(page).getByRole('button', { name: 'Back to sign in' }).click();
      await dialog(page).getByRole('tab', { name: 'Sign Up' }).click();
      await dialog(page).getByRole('button', { name: 'Create Account' }).click();
      await expect(dialog(page).getByText('First name is required')).toBeVisible();
      await check('sign-up dialog with errors');
      if (theme === 'dark') await screenshot(page, 'landing-signup-dialog-dark', false);

      // The pages the account emails link to, and the second step of a staff sign-in: a real
      // reset link (the page asks whether it works before showing the form).
      const email = uniqueEmail(`a11y-reset-${theme}`);
      await page.request.post('/api/signup', {
        data: { email, password: CUSTOMER_PASSWORD, firstName: 'Axe', lastName: 'Reset' },
      });
      await page.request.post('/api/logout');
      await page.request.post('/api/password/forgot', { data: { email } });
      await page.goto(linkIn(await waitForMail(email, /Reset your/)));
      await page.getByRole('button', { name: 'Set new password' }).click();
      await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
      await check('reset password with errors');
      await page.goto('/reset-password?token=not-a-real-one');
      await expect(page.getByTestId('reset-link-dead')).toContainText('invalid or has expired');
      await check('reset password with a dead link');
      await page.goto('/verify-email?token=not-a-real-one');
      await expect(page.getByRole('heading', { name: 'Link not valid' })).toBeVisible();
      await check('verify email with a dead link');
      await page.goto('/sign-in-link?token=not-a-real-one');
      await page.getByRole('button', { name: 'Sign me in' }).click();
      await expect(page.getByRole('alert')).toContainText('invalid, used or expired');
      await check('sign-in link with a dead link');
      const unenrolled = unenrolledStaffCredentials();
      await page.goto('/admin/login');
      await page.getByLabel('Email').fill(unenrolled.email);
      await page.getByLabel('Password').fill(unenrolled.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page.getByTestId('totp-qr')).toBeVisible();
      await page.getByRole('button', { name: 'Turn on and sign in' }).click();
      await expect(page.getByText('Enter the 6-digit code')).toBeVisible();
      await check('staff authenticator set-up with an error');
      await screenshot(page, `admin-enrol-${theme}`);
      expect(findings).toEqual([]);
    });

    test(`customer pages and dialogs have no axe findings (${theme})`, async ({ browser }) => {
      const page = await open(browser, { theme });
      await customerWithData(page);
      const { findings, check } = recorder(page, theme);

      await page.goto('/');
      await expect(page.getByTestId('recent-transaction')).toHaveCount(1);
      await check('dashboard');
      await screenshot(page, `dashboard-${theme}-desktop`);

      await page.goto('/upload');
      await page.getByTestId('submit-card').click();
      await expect(page.getByText('Card value is required')).toBeVisible();
      await page.getByTestId('submit-card').hover();
      await check('upload with errors');
      await screenshot(page, `upload-errors-${theme}-desktop`);

      await page.goto('/history');
      await expect(page.getByTestId('history-row')).toHaveCount(1);
      await check('history');
      await page.getByRole('button', { name: 'View details of Amazon' }).click();
      await expect(dialog(page)).toBeVisible();
      await check('history details dialog');
      await closeDialog(page);

      await page.goto('/payment-methods');
      await expect(page.getByTestId('payment-method')).toHaveCount(1);
      await check('payment methods');
      await page.getByTestId('add-payment-method').click();
      await dialog(page).getByRole('button', { name: 'Add Payment Method' }).click();
      await expect(dialog(page).getByText('Account name is required')).toBeVisible();
      await check('add payment method dialog with errors');
      await closeDialog(page);
      await page.getByRole('button', { name: /^Edit / }).click();
      await expect(dialog(page)).toBeVisible();
      await check('edit payment method dialog');
      await closeDialog(page);
      await page.getByRole('button', { name: /^Delete / }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await check('delete payment method confirmation');
      await page.keyboard.press('Escape');

      await page.goto('/chat');
      await expect(page.getByText('Is my card received?')).toBeVisible();
      await page.getByTestId('chat-file-input').setInputFiles(CARD_IMAGE);
      await expect(page.getByText('Attachment ready')).toBeVisible();
      await check('chat with an attachment ready');

      await page.goto('/support');
      await page.getByRole('button', { name: /Submit/ }).click();
      await check('support with errors');
      await page.getByRole('button', { name: /View conversation/ }).click();
      await expect(dialog(page).getByTestId('chat-message')).toHaveCount(1);
      await check('ticket conversation');
      await dialog(page).getByRole('button', { name: 'Send reply' }).click();
      await expect(dialog(page).getByText('Message is required')).toBeVisible();
      await check('ticket conversation with an error');
      await screenshot(page, `ticket-conversation-${theme}-desktop`, false);
      await closeDialog(page);

      await page.goto('/profile');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await check('profile info');
      await page.getByRole('tab', { name: /Payment/ }).click();
      await check('profile payments');
      await page.getByRole('tab', { name: 'Security' }).click();
      await expect(page.getByTestId('session')).toHaveCount(1);
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect(page.getByText('Current password is required')).toBeVisible();
      await check('profile security with errors');
      await screenshot(page, `profile-security-${theme}-desktop`);

      // The bell, with an unread notification from a staff decision.
      const staff = await staffContext(browser);
      const cards = await (await page.request.get('/api/transactions')).json();
      await reviewCardByApi(staff.request, cards[0].id, { status: 'processing' });
      await staff.close();
      await page.goto('/');
      await page.getByTestId('notification-count').waitFor();
      await page.getByTestId('notification-bell').click();
      await expect(page.getByTestId('notification')).toHaveCount(1);
      await check('notifications open');
      await screenshot(page, `notifications-${theme}-desktop`, false);
      await page.keyboard.press('Escape');

      // A completed card: the details dialog asks for a rating; a rejected one says why.
      const approver = await staffContext(browser);
      await reviewCardByApi(approver.request, cards[0].id, { status: 'completed' });
      const rejected = await submitCardByApi(page.request, 'Nike');
      await reviewCardByApi(approver.request, rejected.id, {
        status: 'rejected',
        rejectionReason: 'image_unreadable',
      });
      await approver.close();
      await page.goto('/history');
      await expect(page.getByTestId('history-row').getByTestId('rejection-reason')).toHaveCount(1);
      await check('history with a rejected card');
      await page.getByRole('button', { name: 'View details of Amazon' }).click();
      await dialog(page).getByRole('button', { name: 'Submit rating' }).click();
      await expect(dialog(page).getByRole('alert')).toBeVisible();
      await check('history details dialog with the rating form and its error');
      await closeDialog(page);

      for (const url of ['/terms', '/privacy', '/no-such-page', '/admin']) {
        await page.goto(url);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await check(url);
      }

      // A refused file, named under the photos.
      await page.goto('/upload');
      await page.getByTestId('card-images-input').setInputFiles({
        name: 'notes.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('x'),
      });
      await expect(page.getByTestId('files-refused')).toBeVisible();
      await check('a refused file');
      // A destructive toast: the server refuses one more confirmation link this hour.
      for (let i = 0; i < 20; i++) {
        if ((await page.request.post('/api/email/verify/resend')).status() === 429) break;
      }
      await page.getByRole('button', { name: 'Resend link' }).click();
      await expect(page.getByTestId('toast')).toContainText('Could not send the link');
      await check('destructive toast');

      const phone = await open(browser, { theme, viewport: PHONE });
      await phone.context().addCookies(await page.context().cookies());
      await phone.goto('/');
      await phone.getByTestId('sidebar-trigger').click();
      await expect(phone.getByTestId('sidebar-mobile')).toBeVisible();
      const phoneRecorder = recorder(phone, theme);
      await phoneRecorder.check('mobile sidebar');
      await screenshot(phone, `sidebar-${theme}-phone`, false);
      findings.push(...phoneRecorder.findings);
      expect(findings).toEqual([]);
    });

    test(`staff pages and dialogs have no axe findings (${theme})`, async ({ browser }) => {
      const customer = await open(browser);
      const email = await customerWithData(customer);
      const page = await open(browser, { theme });
      await signInStaff(page);
      const { findings, check } = recorder(page, theme);

      await page.goto('/admin');
      await expect(page.getByTestId('upload-row').first()).toBeVisible();
      await check('staff uploads');
      await screenshot(page, `admin-uploads-${theme}-desktop`);
      await page.getByLabel('Search card type, email or ID').fill(email);
      await expect(page.getByTestId('upload-row')).toHaveCount(1);
      await page.getByTestId('upload-row').getByRole('button', { name: 'Review' }).click();
      await expect(dialog(page).getByTestId('save-review')).toBeVisible();
      await dialog(page).getByLabel('Payment Amount').fill('1.234');
      await check('review dialog with an error');
      await screenshot(page, `admin-review-${theme}-desktop`, false);
      await closeDialog(page);

      await page.getByTestId('upload-row').getByRole('button', { name: 'Review' }).click();
      await dialog(page).getByLabel('Status', { exact: true }).selectOption('rejected');
      await dialog(page).getByLabel('Rejection Reason').selectOption('other');
      await dialog(page).getByTestId('save-review').click();
      await expect(dialog(page).getByRole('alert')).toBeVisible();
      await check('review dialog with a rejection reason missing its note');
      await closeDialog(page);

      const cards = await (await customer.request.get('/api/transactions')).json();
      await reviewCardByApi(page.request, cards[0].id, { status: 'processing' });
      await page.getByRole('tab', { name: 'Payouts' }).click();
      const payout = page.getByTestId('payout-row').filter({ hasText: email });
      await payout.getByRole('checkbox').click();
      await check('staff Payouts with a card selected');
      await screenshot(page, `admin-payouts-${theme}-desktop`);
      await page.getByTestId('mark-sent').click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await check('mark payouts sent confirmation');
      await page.keyboard.press('Escape');

      // A suspended customer on the Users tab's first page, so its badge is checked in every run:
      // its dark colours (white on light red) failed only when another test had suspended someone.
      const suspended = await open(browser);
      const signup = await suspended.request.post('/api/signup', {
        data: {
          email: uniqueEmail('a11y-suspended'),
          password: CUSTOMER_PASSWORD,
          firstName: 'Sus',
          lastName: 'Pended',
        },
      });
      const suspend = await page.request.post(
        `/api/admin/users/${(await signup.json()).id}/suspend`,
        { data: { reason: 'Checked by the accessibility test' } },
      );
      expect(suspend.status()).toBe(200);
      for (const tab of ['Users', 'Tickets']) {
        await page.getByRole('tab', { name: tab }).click();
        await check(`staff ${tab}`);
      }
      await page
        .getByRole('button', { name: /Open thread/ })
        .first()
        .click();
      await expect(dialog(page).getByTestId('chat-message').first()).toBeVisible();
      await check('staff ticket thread');
      await dialog(page).getByRole('button', { name: 'Send reply' }).click();
      await expect(dialog(page).getByText('Message is required')).toBeVisible();
      await check('staff ticket thread with an error');
      await screenshot(page, `admin-ticket-thread-${theme}-desktop`, false);
      await closeDialog(page);
      await page.getByRole('tab', { name: 'Users' }).click();
      await page.getByTestId('end-user-sessions').first().click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await check('end sessions confirmation');
      await page.keyboard.press('Escape');
      await page.getByRole('tab', { name: 'Rates' }).click();
      await expect(page.getByTestId('rate-row').first()).toBeVisible();
      await check('staff Rates');
      await page.getByRole('button', { name: 'Edit Visa' }).click();
      await dialog(page).getByLabel('Rate (0.01–1.00)').fill('2');
      await dialog(page).getByTestId('save-rate').click();
      await expect(dialog(page).getByText('Rate must be between 0.01 and 1.00')).toBeVisible();
      await check('rate dialog with an error');
      await closeDialog(page);
      await page.getByRole('button', { name: 'Retire Visa' }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await check('retire brand confirmation');
      await page.keyboard.press('Escape');
      await page.getByRole('tab', { name: 'Tickets' }).click();
      await page.getByRole('tab', { name: 'Chat Support' }).click();
      await page
        .getByTestId('conversation')
        .filter({ hasText: 'Is my card received?' })
        .first()
        .click();
      await expect(page.getByTestId('admin-thread')).toContainText('Is my card received?');
      await check('staff chat');
      await page.getByTestId('clear-chats').click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await check('clear chats confirmation');
      await page.keyboard.press('Escape');

      await page.goto('/');
      await expect(page.getByTestId('shell-brand')).toBeVisible();
      await check('staff in the customer shell');
      expect(findings).toEqual([]);
    });
  }

  test('a card can be uploaded with the keyboard alone', async ({ customer: { page } }) => {
    const choosers = catchFileChoosers(page);
    await page.request.post('/api/payment-methods', {
      data: { type: 'paypal', accountName: 'Riley Stone', identifier: 'riley@example.com' },
    });
    await page.goto('/upload');
    await expect(page.getByLabel('Payment Method')).toHaveText(/PayPal/);
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return el?.id || el?.getAttribute('aria-label') || el?.textContent?.trim() || '';
      });
    /** Presses Tab until `target` has focus (at most 40 times). */
    const tabTo = async (target: string) => {
      for (let i = 0; i < 40; i++) {
        if ((await focused()) === target) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`Tab never reached ${target}; focus is on ${await focused()}`);
    };
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo('cardType');
    await page.keyboard.type('Amazon'); // a native select picks by typing
    await tabTo('cardValue');
    await page.keyboard.type('100');
    await tabTo('Brand New');
    await page.keyboard.press('Space');
    await tabTo('Physical');
    await page.keyboard.press('Space');
    await tabTo('card-images');
    await page.keyboard.press('Space');
    await (await choosers.next()).setFiles(CARD_IMAGE);
    await expect(page.getByTestId('picked-file')).toHaveCount(1);
    // The scam question (decision 073): arrows would move within it, Space picks the first.
    await tabTo('No');
    await page.keyboard.press('Space');
    await tabTo('Submit Gift Card');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('upload-success')).toBeVisible();
    await expect(page.getByTestId('toast')).toContainText(
      'Your gift card has been submitted for review.',
    );
  });

  test('a chat file can be attached with the keyboard alone', async ({ customer: { page } }) => {
    const choosers = catchFileChoosers(page);
    await page.goto('/chat');
    const attach = page.getByRole('button', { name: 'Attach a file' });
    await attach.focus();
    await page.keyboard.press('Enter');
    await (await choosers.next()).setFiles(CARD_IMAGE);
    await expect(page.getByTestId('attachment-state')).toContainText('Attachment ready');
    // Space opens it again, for a different file.
    await attach.focus();
    await page.keyboard.press('Space');
    await (await choosers.next()).setFiles(CARD_IMAGE);
    await expect(page.getByTestId('attachment-state')).toContainText('Attachment ready');
  });

  test('focus goes back to what opened each dialog', async ({ browser }) => {
    const page = await open(browser);
    const isFocused = (name: string | RegExp) =>
      page
        .getByRole('button', { name })
        .first()
        .evaluate((el) => el === document.activeElement);
    const expectFocusBack = async (name: string | RegExp) => {
      for (let i = 0; i < 20 && !(await isFocused(name)); i++) await page.waitForTimeout(100);
      expect(await isFocused(name), `focus back on ${name}`).toBe(true);
    };

    await page.goto('/');
    await page.getByTestId('header-signin').focus();
    await page.keyboard.press('Enter');
    await expect(dialog(page)).toBeVisible();
    await closeDialog(page);
    await expectFocusBack('Sign In');

    await customerWithData(page);
    await page.goto('/payment-methods');
    for (const name of ['Add Payment Method', /^Edit /, /^Delete /]) {
      await page.getByRole('button', { name }).first().focus();
      await page.keyboard.press('Enter');
      await expect(dialog(page).or(page.getByRole('alertdialog'))).toBeVisible();
      await page.keyboard.press('Escape');
      await expectFocusBack(name);
    }
    await page.goto('/history');
    await page.getByRole('button', { name: 'View details of Amazon' }).focus();
    await page.keyboard.press('Enter');
    await expect(dialog(page)).toBeVisible();
    await closeDialog(page);
    await expectFocusBack('View details of Amazon');

    const staff = await open(browser);
    await signInStaff(staff);
    await staff.goto('/admin');
    const review = staff.getByTestId('upload-row').first().getByRole('button', { name: 'Review' });
    await review.focus();
    await staff.keyboard.press('Enter');
    await expect(staff.getByTestId('save-review')).toBeVisible();
    await staff.keyboard.press('Escape');
    await expect(staff.getByRole('dialog')).toHaveCount(0);
    expect(await review.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  test('no customer or staff page is wider than a 375 px phone', async ({ browser }) => {
    const page = await open(browser, { viewport: PHONE });
    await customerWithData(page);
    const problems: string[] = [];
    const record = async (where: string) => {
      for (const problem of await findCutOff(page)) problems.push(`${where}: ${problem}`);
    };
    for (const url of [
      '/',
      '/upload',
      '/history',
      '/payment-methods',
      '/chat',
      '/support',
      '/profile',
      '/terms',
      '/privacy',
      '/no-such-page',
    ]) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForTimeout(300);
      await record(url);
      await screenshot(page, `phone${url.replaceAll('/', '-') || '-home'}`);
    }
    await page.goto('/history');
    await page.getByRole('button', { name: 'View details of Amazon' }).first().click();
    await record('history details dialog');
    await page.goto('/support');
    await page
      .getByRole('button', { name: /View conversation/ })
      .first()
      .click();
    await expect(page.getByTestId('ticket-dialog').getByTestId('chat-message')).toHaveCount(1);
    await record('ticket conversation');

    const staff = await open(browser, { viewport: PHONE });
    await signInStaff(staff);
    await staff.goto('/admin');
    await expect(staff.getByTestId('upload-card').first()).toBeVisible();
    for (const tab of ['User Uploads', 'Payouts', 'Users', 'Chat Support', 'Tickets']) {
      await staff.getByRole('tab', { name: tab }).click();
      await staff.waitForTimeout(300);
      for (const problem of await findCutOff(staff)) problems.push(`staff ${tab}: ${problem}`);
      await screenshot(staff, `phone-admin-${tab.toLowerCase().replaceAll(' ', '-')}`);
    }
    await staff.getByRole('tab', { name: 'Tickets' }).click();
    await staff
      .getByRole('button', { name: /Open thread/ })
      .first()
      .click();
    await expect(
      staff.getByTestId('admin-ticket-dialog').getByTestId('chat-message').first(),
    ).toBeVisible();
    for (const problem of await findCutOff(staff)) problems.push(`ticket thread: ${problem}`);
    await screenshot(staff, 'phone-admin-ticket-thread', false);
    await staff.keyboard.press('Escape');
    await staff.getByRole('tab', { name: 'User Uploads' }).click();
    await staff.getByTestId('upload-card').first().getByRole('button', { name: 'Review' }).click();
    await expect(staff.getByTestId('save-review')).toBeVisible();
    for (const problem of await findCutOff(staff)) problems.push(`review dialog: ${problem}`);
    await screenshot(staff, 'phone-admin-review', false);
    for (const url of ['/', '/admin/login', '/terms']) {
      const visitor = await open(browser, { viewport: PHONE });
      await visitor.goto(url);
      await expect(visitor.getByRole('heading', { level: 1 })).toBeVisible();
      for (const problem of await findCutOff(visitor)) problems.push(`visitor ${url}: ${problem}`);
      await screenshot(visitor, `phone-visitor${url.replaceAll('/', '-')}`);
    }
    expect(problems).toEqual([]);
  });
});

// Reading the image once keeps a missing fixture from failing in the middle of a test.
readFileSync(CARD_IMAGE);
