import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './tests/tally-reporter.ts'],
    include: [
      'src/**/*.test.ts',
      'tests/api/**/*.test.ts',
      'tests/storage/**/*.test.ts',
      'tests/dev/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
