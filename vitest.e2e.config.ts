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
  },
});
