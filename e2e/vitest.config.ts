import { defineConfig } from 'vitest/config';

// Browser journeys: one real server per file, Debian's chromium driven by playwright-core.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
