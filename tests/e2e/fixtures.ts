import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { test as base, inject } from 'vitest';
import './matchers';

export const baseURL = () => inject('baseURL');
export const staffCredentials = () => inject('staff');

export const SCREENSHOT_DIR = 'screenshots';
mkdirSync(SCREENSHOT_DIR, { recursive: true });

let counter = 0;
export const uniqueEmail = (prefix = 'e2e') =>
  `${prefix}.${Date.now().toString(36)}.${++counter}@example.com`;

export const CUSTOMER_PASSWORD = 'e2e password 123';

export interface Customer {
  email: string;
  firstName: string;
  lastName: string;
}

interface Fixtures {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** A page signed in as a new customer (made through the API, then the app opened at /). */
  customer: { page: Page; account: Customer };
  /** A page signed in as the staff account the server printed at first start. */
  staff: { page: Page };
}

export const test = base.extend<Fixtures>({
  browser: [
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      await use(browser);
      await browser.close();
    },
    { scope: 'file' },
  ],
  context: async ({ browser }, use) => {
    const context = await browser.newContext({
      baseURL: baseURL(),
      viewport: { width: 1280, height: 800 },
    });
    await use(context);
    await context.close();
  },
  page: async ({ context }, use) => {
    await use(await context.newPage());
  },
  customer: async ({ page }, use) => {
    const account = { email: uniqueEmail(), firstName: 'Riley', lastName: 'Stone' };
    const response = await page.request.post('/api/signup', {
      data: { ...account, password: CUSTOMER_PASSWORD },
    });
    if (!response.ok()) throw new Error(`sign-up failed: ${await response.text()}`);
    await page.goto('/');
    await page.getByTestId('shell-brand').waitFor();
    await use({ page, account });
  },
  staff: async ({ page }, use) => {
    const response = await page.request.post('/api/admin/signin', { data: staffCredentials() });
    if (!response.ok()) throw new Error(`staff sign-in failed: ${await response.text()}`);
    await use({ page });
  },
});

export async function screenshot(page: Page, name: string, fullPage = true) {
  await page.waitForTimeout(300); // let transitions and animations settle
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage });
}

/** The page is no wider than its viewport: nothing makes a phone scroll sideways. */
export async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  if (scrollWidth > innerWidth)
    throw new Error(`page is ${scrollWidth}px wide in a ${innerWidth}px viewport`);
}
