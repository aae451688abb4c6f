import { defineConfig } from 'vitest/config';

// Browser journeys: one real server per file, Debian's chromium driven by playwright-core.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A page waited on by expect.poll answers within Vitest's default second when the host is quiet, not when two
    // journeys and their servers share two cores: a closing dialog's 300 ms animation then took longer.
    expect: { poll: { timeout: 10_000 } },
    // Two journeys at once: each has its own server, database and browser, and spends most of its time waiting
    // on the market and the page, so the pair takes little more than one on two cores (CI time halves).
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
