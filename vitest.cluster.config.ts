import { defineConfig } from 'vitest/config';

/** Several built instances on one PostgreSQL (npm run test:cluster, with DATABASE_URL set). */
export default defineConfig({
  test: {
    reporters: ['default', './tests/tally-reporter.ts'],
    include: ['tests/cluster/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
