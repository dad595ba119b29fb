import { describe, expect } from 'vitest';
import {
  baseURL,
  CUSTOMER_PASSWORD,
  expectNoSidewaysScroll,
  nextCode,
  screenshot,
  staffCredentials,
  test,
  uniqueEmail,
} from './fixtures';

describe('accounts in the browser', () => {
  test('sign up in the landing dialog, sign out, sign in again', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('get-started').click();
    const dialog = page.getByTestId('auth-dialog');
    await expect(dialog.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(dialog.getByLabel('Password')).toHaveAttribute('placeholder', 'Min. 8 characters');

    // The shared schema's messages show before anything is sent.
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await expect(dialog.getByText('First name is required')).toBeVisible();
    await expect(dialog.getByText('Password must be at least 8 characters')).toBeVisible();

    const email = uniqueEmail('signup');
    await dialog.getByLabel('First Name').fill('Jordan');
    await dialog.getByLabel('Last Name').fill('Avery');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Password').fill(CUSTOMER_PASSWORD);
    await dialog.getByRole('button', { name: 'Create Account' }).click();

    await expect(page.getByTestId('shell-brand')).toHaveText('Cardbridge Connect');
    await expect(page.getByTestId('user-display-name')).toHaveText('Jordan Avery');
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(page.getByTestId('nav-admin')).toHaveCount(0);

    await page.getByTestId('logout').click();
    await expect(page.getByTestId('header-signin')).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');

    await page.getByTestId('header-signin').click();
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Password').fill('not the password');
    await dialog.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('toast')).toContainText('Sign in failed');
    await expect(page.getByTestId('toast')).toContainText('Invalid email or password');

    await dialog.getByLabel('Password').fill(CUSTOMER_PASSWORD);
    await dialog.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('shell-brand')).toHaveText('Cardbridge Connect');
  });

  test('a duplicate sign-up shows the server message', async ({ customer, browser }) => {
    const context = await browser.newContext({ baseURL: new URL(customer.page.url()).origin });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByTestId('cta-signup').click();
    const dialog = page.getByTestId('auth-dialog');
    await dialog.getByLabel('First Name').fill('Dup');
    await dialog.getByLabel('Last Name').fill('Licate');
    await dialog.getByLabel('Email').fill(customer.account.email);
    await dialog.getByLabel('Password').fill(CUSTOMER_PASSWORD);
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByTestId('toast')).toContainText('Sign up failed');
    await expect(page.getByTestId('toast')).toContainText(
      'An account with this email already exists',
    );
    await context.close();
  });

  test('/api/login opens the sign-in dialog', async ({ page }) => {
    await page.goto('/api/login');
    await expect(page.getByTestId('auth-dialog')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });
});

describe('routes', () => {
  test('signed out, unknown paths show the landing page; public pages open', async ({ page }) => {
    await page.goto('/somewhere/else');
    await expect(page.getByTestId('get-started')).toBeVisible();
    await page.goto('/upload');
    await expect(page.getByTestId('get-started')).toBeVisible();

    await page.goto('/terms');
    await expect(page.getByRole('heading', { name: 'Terms of Service' })).toBeVisible();
    await expect(page.getByText('Last updated: October 9, 2025')).toBeVisible();
    await expect(page.locator('article ol > li')).toHaveCount(11);
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page.getByTestId('get-started')).toBeVisible();

    await page.goto('/privacy');
    await expect(page.getByRole('heading', { name: 'Privacy Policy' })).toBeVisible();
    await expect(page.locator('article ol > li')).toHaveCount(13);

    await page.goto('/');
    await page.getByRole('link', { name: 'How It Works' }).first().click();
    expect(page.url()).toContain('#how-it-works');
  });

  test('signed in, unknown paths show the 404 page and /dashboard goes to /', async ({
    customer: { page },
  }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await expect(page.getByTestId('shell-brand')).toBeVisible();

    await page.goto('/dashboard');
    // A brand-new account is welcomed, not welcomed back (decision 034).
    await expect(page.getByRole('heading', { name: 'Welcome, Riley' })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');

    await page.goto('/terms');
    await expect(page.getByRole('heading', { name: 'Terms of Service' })).toBeVisible();
    await expect(page.getByTestId('shell-brand')).toBeVisible();
  });

  test('the sidebar highlights the current route and the profile shows the account', async ({
    customer: { page, account },
  }) => {
    await page.getByTestId('nav-profile').click();
    await expect(page.getByTestId('nav-profile')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('nav-dashboard')).not.toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('profile-email')).toHaveText(account.email);
    await expect(page.getByTestId('profile-name')).toHaveText('Riley Stone');
    await expect(page.getByTestId('profile-member-since')).toHaveText(
      /^[A-Z][a-z]{2} \d{2}, \d{4}$/,
    );
  });

  test('a customer who opens /admin is told they need admin access', async ({ customer }) => {
    await customer.page.goto('/admin');
    await expect(
      customer.page.getByRole('heading', { name: 'Admin Access Required' }),
    ).toBeVisible();
    await expect(
      customer.page.getByText("You don't have permission to access this page."),
    ).toBeVisible();
  });
});

describe('shell state', () => {
  test('the theme and the sidebar state survive a reload', async ({
    customer: { page },
    context,
  }) => {
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    await page.getByTestId('theme-toggle').click();
    await expect(page.locator('html')).toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
    expect(cookie?.value).toBe('false');
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(604_800 - 60);

    await page.reload();
    await expect(page.locator('html')).toHaveClass(/dark/);
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'collapsed');
    const width = async () => (await page.getByTestId('sidebar').boundingBox())!.width;
    await expect.poll(width).toBe(48); // 3rem

    await page.getByTestId('sidebar-trigger').click();
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'expanded');
    await expect.poll(width).toBe(256); // 16rem
  });

  test('under 768px the sidebar opens as a side sheet', async ({ customer: { page } }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await expect(page.getByTestId('sidebar')).toHaveCount(0);
    await page.getByTestId('sidebar-trigger').click();
    const sheet = page.getByTestId('sidebar-mobile');
    await expect(sheet).toBeVisible();
    await expect.poll(async () => (await sheet.boundingBox())!.width).toBe(288); // 18rem
    await sheet.getByTestId('nav-history').click();
    await expect(page.getByRole('heading', { name: 'Transaction History' })).toBeVisible();
    await expect(sheet).toHaveCount(0);
  });
});

describe('staff', () => {
  test('staff sign in at /admin/login and see Admin Panel in the sidebar', async ({ page }) => {
    await page.goto('/admin/login');
    await expect(page.getByText('Admin Portal')).toBeVisible();
    await page.getByLabel('Email').fill(staffCredentials().email);
    await page.getByLabel('Password').fill(staffCredentials().password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    // The password alone is not enough: the authenticator's code is asked for next.
    await page.getByLabel('Authentication code').fill(await nextCode(staffCredentials().secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/admin');
    await expect(page.getByTestId('toast')).toContainText('Successfully signed in as admin');

    await page.goto('/');
    await expect(page.getByTestId('nav-admin')).toBeVisible();
    await page.getByTestId('nav-admin').click();
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();

    await page.getByTestId('admin-logout').click();
    await expect(page.getByTestId('header-signin')).toBeVisible();
  });

  test('customer credentials fail at the admin portal', async ({ customer, browser }) => {
    const context = await browser.newContext({ baseURL: new URL(customer.page.url()).origin });
    const page = await context.newPage();
    await page.goto('/admin/login');
    await page.getByLabel('Email').fill(customer.account.email);
    await page.getByLabel('Password').fill(CUSTOMER_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('toast')).toContainText('Invalid email or password');
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await context.close();
  });
});

describe('screenshots', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const [label, width, height] of [
      ['desktop', 1280, 800],
      ['mobile', 375, 740],
    ] as const) {
      test(`landing, dialog and shell (${theme}, ${label})`, async ({ browser }) => {
        const context = await browser.newContext({ viewport: { width, height } });
        await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
        const page = await context.newPage();
        const base = baseURL();
        await page.goto(`${base}/`);
        await expect(page.getByTestId('get-started')).toBeVisible();
        await expectNoSidewaysScroll(page);
        await screenshot(page, `landing-${theme}-${label}`);
        await page.getByTestId('header-signin').click();
        await expect(page.getByTestId('auth-dialog')).toBeVisible();
        await screenshot(page, `dialog-${theme}-${label}`, false);
        await page.getByRole('tab', { name: 'Sign Up' }).click();
        await screenshot(page, `dialog-signup-${theme}-${label}`, false);
        await page.keyboard.press('Escape');

        await page.request.post(`${base}/api/signup`, {
          data: {
            email: uniqueEmail('shot'),
            password: CUSTOMER_PASSWORD,
            firstName: 'Morgan',
            lastName: 'Lee',
          },
        });
        await page.goto(`${base}/profile`);
        await expect(page.getByTestId('profile-email')).toBeVisible();
        await expectNoSidewaysScroll(page);
        await screenshot(page, `shell-profile-${theme}-${label}`);
        if (label === 'mobile') {
          await page.getByTestId('sidebar-trigger').click();
          await expect(page.getByTestId('sidebar-mobile')).toBeVisible();
          await screenshot(page, `shell-sheet-${theme}-${label}`, false);
        }
        await context.close();
      });
    }
  }
});
