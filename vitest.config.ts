import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// One Vitest run covers every package; browser journeys live in e2e/ with their own config.
const project = (name: string, root: string, extra: Record<string, unknown> = {}) => ({
  test: { name, root, include: ['src/**/*.test.{ts,tsx}'], ...extra },
});

// One migrated PGlite database per run, which each test file's createTestDb loads instead of migrating its own.
const pgliteDump = fileURLToPath(new URL('packages/db/src/testing/pglite-dump.setup.ts', import.meta.url));

export default defineConfig({
  test: {
    passWithNoTests: true,
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine, where many
    // files mostly wait (on PostgreSQL, child processes, timers). Two or more keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './scripts/summary-reporter.ts'],
    projects: [
      project('shared', 'packages/shared'),
      project('engine', 'packages/engine'),
      project('exchange', 'packages/exchange'),
      project('db', 'packages/db', { testTimeout: 30_000, hookTimeout: 60_000, globalSetup: [pgliteDump] }),
      // *.pg.test.ts need PostgreSQL (crash tests across processes): they run in `npm run test:pg` only.
      project('server', 'apps/server', {
        // Test files share their worker's modules (Fastify, ccxt, viem and the app evaluated once per worker, not
        // once per file: 244 s → 150 s for the project). Safe because the server keeps no per-process state in
        // modules (process-state.ts objects belong to each app a test builds) and no test replaces a module.
        isolate: false,
        testTimeout: 30_000,
        hookTimeout: 60_000,
        globalSetup: [pgliteDump],
        exclude: [
          ...configDefaults.exclude,
          ...(process.env.TEST_DATABASE_URL ? [] : ['src/**/*.pg.test.ts']),
        ],
      }),
      // happy-dom rather than jsdom: half the environment's start-up time and a sixth less test time, on the
      // same Testing Library queries and user-event.
      project('web', 'apps/web', { environment: 'happy-dom', setupFiles: ['src/testing/setup-tests.ts'] }),
      // Repository-wide checks (the dependency rules of docs/architecture.md §2).
      project('repo', '.', { include: ['scripts/**/*.test.ts'] }),
    ],
  },
});
