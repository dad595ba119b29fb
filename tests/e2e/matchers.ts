import type { Locator } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Retrying locator assertions (the subset of Playwright's web-first matchers these tests use),
 * for vitest's expect: each polls until it holds, or its negation holds under .not, for 10 s (CI
 * runs them beside two API lanes on two cores).
 */
const TIMEOUT_MS = 10_000;

interface Check {
  pass: boolean;
  actual: unknown;
}

async function poll(isNot: boolean, check: () => Promise<Check>): Promise<Check> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    let result: Check;
    try {
      result = await check();
    } catch (error) {
      result = { pass: false, actual: (error as Error).message.split('\n')[0] };
    }
    if (result.pass !== isNot || Date.now() > deadline) return result;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const matches = (actual: string | null, expected: string | RegExp) =>
  actual !== null && (typeof expected === 'string' ? actual === expected : expected.test(actual));

function matcher(
  describe: (...args: unknown[]) => string,
  check: (locator: Locator, ...args: never[]) => Promise<Check>,
) {
  return async function (this: { isNot?: boolean }, locator: Locator, ...args: unknown[]) {
    const result = await poll(Boolean(this.isNot), () => check(locator, ...(args as never[])));
    return {
      pass: result.pass,
      message: () =>
        `expected ${locator}${this.isNot ? ' not' : ''} ${describe(...args)}; got ${JSON.stringify(result.actual)}`,
    };
  };
}

expect.extend({
  toBeVisible: matcher(
    () => 'to be visible',
    async (l) => {
      const visible = await l.isVisible();
      return { pass: visible, actual: visible ? 'visible' : 'hidden' };
    },
  ),
  toHaveText: matcher(
    (e) => `to have text ${e}`,
    async (l, expected: string | RegExp) => {
      const text = (await l.textContent({ timeout: 1000 }))?.trim() ?? null;
      return { pass: matches(text, expected), actual: text };
    },
  ),
  toContainText: matcher(
    (e) => `to contain text ${e}`,
    async (l, expected: string) => {
      const text = (await l.textContent({ timeout: 1000 })) ?? '';
      return { pass: text.includes(expected), actual: text };
    },
  ),
  toHaveAttribute: matcher(
    (n, v) => `to have ${n}=${v}`,
    async (l, name: string, expected: string | RegExp) => {
      const value = await l.getAttribute(name, { timeout: 1000 });
      return { pass: matches(value, expected), actual: value };
    },
  ),
  toHaveClass: matcher(
    (e) => `to have class ${e}`,
    async (l, expected: RegExp) => {
      const value = await l.getAttribute('class', { timeout: 1000 });
      return { pass: matches(value, expected), actual: value };
    },
  ),
  toHaveValue: matcher(
    (e) => `to have value ${e}`,
    async (l, expected: string | RegExp) => {
      const value = await l.inputValue({ timeout: 1000 });
      return { pass: matches(value, expected), actual: value };
    },
  ),
  toBeFocused: matcher(
    () => 'to be focused',
    async (l) => {
      const focused = await l.evaluate((element) => element === document.activeElement, undefined, {
        timeout: 1000,
      });
      return { pass: focused, actual: focused ? 'focused' : 'not focused' };
    },
  ),
  toHaveCount: matcher(
    (n) => `to have count ${n}`,
    async (l, expected: number) => {
      const count = await l.count();
      return { pass: count === expected, actual: count };
    },
  ),
});

declare module 'vitest' {
  interface Assertion<T> {
    toBeVisible(): Promise<T>;
    toHaveText(expected: string | RegExp): Promise<T>;
    toContainText(expected: string): Promise<T>;
    toHaveAttribute(name: string, expected: string | RegExp): Promise<T>;
    toHaveClass(expected: RegExp): Promise<T>;
    toHaveCount(expected: number): Promise<T>;
    toHaveValue(expected: string | RegExp): Promise<T>;
    toBeFocused(): Promise<T>;
  }
}
