import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The client's own import paths (vite.config.ts), for the client's unit tests.
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname, 'src/client'),
      '@shared': path.resolve(import.meta.dirname, 'src/shared'),
    },
  },
  test: {
    reporters: ['default', './tests/tally-reporter.ts'],
    // One migrated database per run, which each test file's database copies.
    globalSetup: ['./tests/database-template.ts'],
    // The files of one worker share its loaded modules: importing the server afresh for every
    // file took as long as many files' tests. Each file still builds its own app and database.
    isolate: false,
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
