import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type FileChooser,
  type Page,
} from 'playwright-core';
import { test as base, expect, inject } from 'vitest';
import { codeAt } from '../../src/server/modules/auth/two-factor';
import { submitCardByApi } from './api-helpers';
import { type SunkMail, sunkMail } from './mail-sink';
import './matchers';

export const baseURL = () => inject('baseURL');
/** The staff account the server printed at its first start (enrolled by the setup). */
export const staffCredentials = () => inject('staff');
/** A staff account that has not set up its authenticator. */
export const newStaffCredentials = () => inject('newStaff');
/** A staff account whose authenticator is never set up (its set-up screen is looked at). */
export const unenrolledStaffCredentials = () => inject('unenrolledStaff');

/** Signs `context` in with the staff session the setup made (a sign-in takes a fresh code). */
export async function signInAsStaff(context: BrowserContext) {
  const [name, value] = inject('staffCookie').split('=') as [string, string];
  await context.addCookies([{ name, value, url: baseURL() }]);
}

/** The admin page in a new staff context, loaded. */
export async function staffPage(
  browser: Browser,
  viewport = { width: 1280, height: 800 },
): Promise<Page> {
  const page = await (await staffContext(browser, { viewport })).newPage();
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  return page;
}

/**
 * A card the customer of `page` submits through the API (submitCardByApi), then the admin page of
 * a new staff context (staffPage), loaded with it pending.
 */
export async function staffPageAfterCard(browser: Browser, page: Page): Promise<Page> {
  await submitCardByApi(page.request);
  return staffPage(browser);
}

/** A new browser context signed in as staff. */
export async function staffContext(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ baseURL: baseURL(), ...options });
  await signInAsStaff(context);
  return context;
}

/**
 * A staff edit of a card through the API, as the portal sends it: with the card's `updatedAt` as
 * just read (`expectedUpdatedAt`, required; decision 108).
 */
export async function reviewCardByApi(request: APIRequestContext, id: string, data: object) {
  const card = await (await request.get(`/api/admin/transactions/${id}`)).json();
  return request.patch(`/api/admin/transactions/${id}`, {
    data: { expectedUpdatedAt: card.updatedAt, ...data },
  });
}

/**
 * The next code of the authenticator with `secret` that no test has used yet (the server takes
 * each once). The test files run one after another in separate processes, so the last step used
 * is kept in a file; past the next step's code, it waits for a new one.
 */
export async function nextCode(secret: string): Promise<string> {
  const file = inject('codeStepFile');
  for (;;) {
    const used = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
    const now = Date.now();
    const step = Math.floor(now / 30_000);
    const use = Math.max(step, (used[secret] ?? -1) + 1);
    if (use <= step + 1) {
      writeFileSync(file, JSON.stringify({ ...used, [secret]: use }));
      return codeAt(secret, use * 30_000);
    }
    await new Promise((r) => setTimeout(r, (step + 1) * 30_000 - now + 10));
  }
}

/** The first message to `to` whose subject matches that the server sent, within `timeoutMs`. */
export async function waitForMail(
  to: string,
  subject: RegExp,
  timeoutMs = 10_000,
): Promise<SunkMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = sunkMail(inject('mailDir')).find(
      (m) => m.to.includes(to) && subject.test(m.subject),
    );
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The link to the site a message carries. */
export const linkIn = (mail: SunkMail) => mail.text.match(/https?:\/\/\S+/)?.[0] ?? '';

export const SCREENSHOT_DIR = 'screenshots';
mkdirSync(SCREENSHOT_DIR, { recursive: true });

let counter = 0;
export const uniqueEmail = (prefix = 'e2e') =>
  `${prefix}.${Date.now().toString(36)}.${++counter}@example.com`;

export const CUSTOMER_PASSWORD = 'e2e password 123';

export type Theme = 'light' | 'dark';
export const THEMES = ['light', 'dark'] as const;
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };

/**
 * A new browser context of the app at `base` (the shared server unless given), `viewport` wide
 * (a desktop unless given), with the app's theme set to `theme` before any page loads (left to
 * the app when not given).
 */
export async function newAppContext(
  browser: Browser,
  {
    theme,
    viewport = DESKTOP,
    base = baseURL(),
  }: { theme?: Theme; viewport?: { width: number; height: number }; base?: string } = {},
) {
  const context = await browser.newContext({ baseURL: base, viewport });
  if (theme) await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
  return context;
}

/** A staff member's browser context, as newAppContext makes it, signed in with the shared session. */
export async function themedStaffContext(
  browser: Browser,
  options: Parameters<typeof newAppContext>[1] = {},
) {
  const context = await newAppContext(browser, options);
  await signInAsStaff(context);
  return context;
}

/** Signs `account` up through the API (password CUSTOMER_PASSWORD); throws if refused. */
export async function signUpByApi(
  request: APIRequestContext,
  account: { email: string; firstName: string; lastName: string },
) {
  const response = await request.post('/api/signup', {
    data: { ...account, password: CUSTOMER_PASSWORD },
  });
  if (!response.ok()) throw new Error(await response.text());
}

/**
 * A new customer (`name`, with an email of `prefix`) signed up through the API in a page of a
 * context of their own, made as newAppContext makes it: `{ page, email }`.
 */
export async function newCustomerPage(
  browser: Browser,
  prefix: string,
  name: { firstName: string; lastName: string },
  options: Parameters<typeof newAppContext>[1] = {},
) {
  const page = await (await newAppContext(browser, options)).newPage();
  const email = uniqueEmail(prefix);
  await signUpByApi(page.request, { email, ...name });
  return { page, email };
}

/**
 * Staff change a card through the API (reviewCardByApi) in a context of their own: its status
 * code; throws if refused.
 */
export async function reviewAsStaff(browser: Browser, id: string, data: object) {
  const staff = await staffContext(browser);
  const response = await reviewCardByApi(staff.request, id, data);
  const body = await response.text();
  await staff.close();
  if (!response.ok()) throw new Error(body);
  return response.status();
}

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
  /** A page signed in as the staff account the server printed at first start (shared session). */
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
    await signInAsStaff(page.context());
    await use({ page });
  },
});

/**
 * Catches the file choosers `page` opens from now on. Call it before the click or key press that
 * opens one, not in a `Promise.all` with it: Playwright asks the browser to intercept choosers
 * when the first 'filechooser' listener is added, without waiting for the browser to agree, so a
 * key press sent in the same breath can open the chooser before interception is on. That chooser
 * then goes to headless Chromium's own (invisible) dialog and no event ever comes: the keyboard
 * upload test's time-outs (docs/decisions/071).
 */
export function catchFileChoosers(page: Page) {
  const opened: FileChooser[] = [];
  page.on('filechooser', (chooser) => opened.push(chooser));
  return {
    /** The next chooser opened, waiting up to 5 s for it. */
    async next(): Promise<FileChooser> {
      await expect.poll(() => opened.length, { timeout: 5000 }).toBeGreaterThan(0);
      return opened.shift()!;
    },
  };
}

export async function screenshot(page: Page, name: string, fullPage = true) {
  await page.waitForTimeout(300); // let transitions and animations settle
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage });
}

/** The page is no wider than its viewport: nothing makes a phone scroll sideways. */
export async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth, widest } = await page.evaluate(() => {
    // The innermost element reaching past the right edge, outside any box that scrolls or
    // clips it, names what to fix.
    const clipped = (e: Element) => {
      for (let p = e.parentElement; p; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') return true;
      }
      return false;
    };
    const past = [...document.querySelectorAll('body *')].filter(
      (e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !clipped(e),
    );
    const innermost = past.filter((e) => !past.some((o) => o !== e && e.contains(o)));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      widest: innermost
        .slice(0, 3)
        .map(
          (e) =>
            `<${e.tagName.toLowerCase()} class="${e.className}">${e.textContent?.slice(0, 40)}`,
        ),
    };
  });
  if (scrollWidth > innerWidth)
    throw new Error(
      `page is ${scrollWidth}px wide in a ${innerWidth}px viewport; past the edge: ${widest.join(' | ')}`,
    );
}
