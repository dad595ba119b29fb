import { describe, expect } from 'vitest';
import { codeAt } from '../../src/server/modules/auth/two-factor';
import { submitCardByApi } from './api-helpers';
import { expectNoAxeFindings } from './axe';
import {
  baseURL,
  CUSTOMER_PASSWORD,
  expectNoSidewaysScroll,
  linkIn,
  newStaffCredentials,
  reviewCardByApi,
  screenshot,
  staffContext,
  test,
  uniqueEmail,
  waitForMail,
} from './fixtures';

describe('accounts people can trust', () => {
  test('a customer resets a forgotten password from the email’s link', async ({ page }) => {
    const email = uniqueEmail('forgetful');
    const signup = await page.request.post('/api/signup', {
      data: { email, password: CUSTOMER_PASSWORD, firstName: 'Fran', lastName: 'Forgetful' },
    });
    expect(signup.ok()).toBe(true);
    await page.request.post('/api/logout');

    await page.goto('/?auth=signin');
    const dialog = page.getByTestId('auth-dialog');
    await dialog.getByTestId('forgot-password').click();
    await expect(dialog.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByRole('button', { name: 'Send reset link' }).click();
    await expect(dialog.getByTestId('forgot-sent')).toContainText('If an account uses that email');

    const mail = await waitForMail(email, /Reset your Cardbridge password/);
    const link = linkIn(mail);
    expect(link.startsWith(`${baseURL()}/reset-password?token=`)).toBe(true);
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('football');
    await page.getByLabel('Repeat the new password').fill('football');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('This password is too common')).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('my new long secret 77');
    await page.getByLabel('Repeat the new password').fill('my new long secret 77');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();
    await screenshot(page, 'reset-password-done');
    await waitForMail(email, /password was changed/);

    await page.getByRole('link', { name: 'Sign in' }).click();
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Password').fill('my new long secret 77');
    await dialog.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('shell-brand')).toBeVisible();
    // The link is spent, and says so on opening, before a password is typed.
    await page.goto(link);
    await expect(page.getByTestId('reset-link-dead')).toContainText('invalid or has expired');
    await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
    await screenshot(page, 'reset-password-used-link');
  });

  test('the owner of a locked account signs in with the emailed link', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: baseURL() });
    const page = await context.newPage();
    const email = uniqueEmail('locked');
    const signup = await page.request.post('/api/signup', {
      data: { email, password: CUSTOMER_PASSWORD, firstName: 'Lou', lastName: 'Locked' },
    });
    expect(signup.ok()).toBe(true);
    await page.request.post('/api/logout');
    // Someone guesses: 21 wrong passwords at once lock the account.
    await Promise.all(
      Array.from({ length: 21 }, () =>
        page.request.post('/api/signin', { data: { email, password: 'a wrong guess 1' } }),
      ),
    );

    // The owner's right password is refused, and the answer says where to look.
    await page.goto('/?auth=signin');
    const dialog = page.getByTestId('auth-dialog');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Password').fill(CUSTOMER_PASSWORD);
    await dialog.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('we have emailed you a link to sign in').first()).toBeVisible();

    const mail = await waitForMail(email, /Sign in to Cardbridge with this link/);
    const link = linkIn(mail);
    expect(link.startsWith(`${baseURL()}/sign-in-link?token=`)).toBe(true);
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Sign in with your link' })).toBeVisible();
    await screenshot(page, 'sign-in-link');
    await page.getByRole('button', { name: 'Sign me in' }).click();
    await expect(page.getByTestId('shell-brand')).toBeVisible();

    // Once only, on a phone in dark mode too.
    await page.request.post('/api/logout');
    await page.setViewportSize({ width: 375, height: 740 });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign me in' }).click();
    await expect(page.getByRole('alert')).toContainText('invalid, used or expired');
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'phone-sign-in-link-used-dark');
    await context.close();
  });

  test('staff enrol the authenticator from the page, sign out, and sign in with a code', async ({
    page,
  }) => {
    const staff = newStaffCredentials();
    await page.goto('/admin/login');
    await page.getByLabel('Email').fill(staff.email);
    await page.getByLabel('Password').fill(staff.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('totp-qr')).toBeVisible();
    await screenshot(page, 'staff-enrol');
    const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const now = Date.now();
    await page.getByLabel('Code from the app').fill(codeAt(secret, now));
    await page.getByRole('button', { name: 'Turn on and sign in' }).click();
    await expect(page.getByTestId('recovery-code')).toHaveCount(10);
    await screenshot(page, 'staff-recovery-codes');
    await page.getByTestId('recovery-codes-saved').click();
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();

    await page.getByTestId('admin-logout').click();
    await expect(page.getByTestId('header-signin')).toBeVisible();

    await page.goto('/admin/login');
    await page.getByLabel('Email').fill(staff.email);
    await page.getByLabel('Password').fill(staff.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('totp-qr')).toHaveCount(0);
    // The code just used is refused; the next one (the server allows one step of drift) works.
    await page.getByLabel('Authentication code').fill(codeAt(secret, now));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('That code was just used')).toBeVisible();
    await page.getByLabel('Authentication code').fill(codeAt(secret, now + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  });

  test('a customer sees a notification appear when staff mark the card paid, and the email arrives', async ({
    customer: { page, account },
    browser,
  }) => {
    const card = await submitCardByApi(page.request);
    await page.goto('/');
    const bell = page.getByTestId('notification-bell');
    await expect(bell).toHaveAttribute('aria-label', 'Notifications');
    await page.waitForTimeout(300); // the event stream is open

    const staff = await staffContext(browser);
    const saved = await reviewCardByApi(staff.request, card.id, {
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '91.00',
    });
    expect(saved.status()).toBe(200);
    await staff.close();

    await page.getByTestId('notification-count').waitFor({ timeout: 3000 });
    await expect(page.getByTestId('notification-count')).toHaveText('1');
    await expect(bell).toHaveAttribute('aria-label', 'Notifications, 1 unread');
    await bell.click();
    const item = page.getByTestId('notification').first();
    await expect(item).toContainText('Amazon card of $100.00: Completed');
    await expect(item).toContainText('Payment: Payment Sent. Payment amount: $91.00.');
    await screenshot(page, 'notification-bell', false);
    // The notification opens the card itself: History with its detail.
    await item.click();
    await page.waitForURL(`**/history?card=${card.id}`);
    await expect(page.getByTestId('transaction-details')).toBeVisible();
    await expect(page.getByTestId('notification-count')).toHaveCount(0);

    const mail = await waitForMail(account.email, /Amazon card of \$100\.00: Completed/);
    expect(mail.text).toContain('Payment: Payment Sent. Payment amount: $91.00.');
    expect(mail.text).toContain(`${baseURL()}/history?card=${card.id}`);
  });

  test('Profile edits the name and ends another session', async ({
    customer: { page, account },
    browser,
  }) => {
    const laptop = await browser.newContext({
      baseURL: baseURL(),
      userAgent:
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    });
    const signin = await laptop.request.post('/api/signin', {
      data: { email: account.email, password: CUSTOMER_PASSWORD },
    });
    expect(signin.ok()).toBe(true);

    await page.goto('/profile');
    await page.getByLabel('First Name').fill('Rowan');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByTestId('user-display-name')).toHaveText('Rowan Stone');
    await expect(page.getByTestId('profile-name')).toHaveText('Rowan Stone');

    await page.getByRole('tab', { name: 'Security' }).click();
    const sessions = page.getByTestId('session');
    await expect(sessions).toHaveCount(2);
    await screenshot(page, 'profile-sessions');
    const other = sessions.filter({ hasText: 'Chrome 131 on Windows 10' });
    await other.getByRole('button', { name: /End session/ }).click();
    await expect(sessions).toHaveCount(1);
    await expect(sessions.first().getByTestId('this-session')).toBeVisible();
    expect((await laptop.request.get('/api/auth/user')).status()).toBe(401);
    await laptop.close();

    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'phone-profile-security');
  });

  test('a customer confirms the email address from the link, and the banner goes', async ({
    customer: { page, account },
  }) => {
    await expect(page.getByTestId('verify-email-banner')).toContainText(account.email);
    const mail = await waitForMail(account.email, /Confirm your email address/);
    await page.goto(linkIn(mail));
    await expect(page.getByRole('heading', { name: 'Email confirmed' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await expect(page.getByTestId('shell-brand')).toBeVisible();
    await expect(page.getByTestId('verify-email-banner')).toHaveCount(0);
  });

  test('a customer moves the account to a new email from Profile, and the old address is told', async ({
    customer: { page, account },
  }) => {
    const moved = uniqueEmail('moved');
    await page.goto('/profile?tab=security');
    const card = page.getByTestId('change-email-card');
    await expect(card).toContainText(account.email);
    await card.getByLabel('New email address').fill(moved);
    await card.getByLabel('Your password').fill(CUSTOMER_PASSWORD);
    await card.getByRole('button', { name: 'Send the link' }).click();
    await expect(card.getByRole('status')).toContainText(moved);
    await expectNoAxeFindings(page, 'the email change card');
    await screenshot(page, 'profile-email-change-sent');
    const link = linkIn(await waitForMail(moved, /Confirm your new Cardbridge email address/));
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Email confirmed' })).toBeVisible();
    await waitForMail(account.email, /Your Cardbridge email address was changed/);
    await page.goto('/profile?tab=security');
    await expect(page.getByTestId('change-email-card')).toContainText(moved);
  });
});
