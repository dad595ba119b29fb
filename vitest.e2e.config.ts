import { defineConfig } from 'vitest/config';

/** Browser tests: Debian's chromium driven by playwright-core against the built app. */
export default defineConfig({
  test: {
    reporters: ['default', './tests/tally-reporter.ts'],
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // As long as the locator matchers wait (tests/e2e/matchers.ts): CI runs these beside two API
    // lanes, where a request that answers in 100 ms alone can take seconds.
    expect: { poll: { timeout: 10_000 } },
  },
});
