import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// One Vitest run covers every package; browser journeys live in e2e/ with their own config.
const project = (name: string, root: string, extra: Record<string, unknown> = {}) => ({
  test: { name, root, include: ['src/**/*.test.{ts,tsx}'], ...extra },
});

// One migrated PGlite database per run, which each test file's createTestDb loads instead of migrating its own.
const pgliteDump = fileURLToPath(new URL('packages/db/src/testing/pglite-dump.setup.ts', import.meta.url));
const serverBundles = fileURLToPath(
  new URL('apps/server/src/testing/server-bundles.setup.ts', import.meta.url),
);

/**
 * PostgreSQL tests that measure time (each user's wait in a fleet, fail-over within a lease): they run after
 * the others, one at a time, so what they measure is the platform and not the crash tests beside them (three
 * files of child processes at once put a 2-core host at a load of ten).
 */
const MEASURED_ALONE = ['src/worker/fleet-budget.pg.test.ts', 'src/worker/scale-out.pg.test.ts'];

/** Server tests of money under concurrency that run on PGlite and again on PostgreSQL. */
const MONEY_RACES = [
  'src/modules/wallet/money-races.test.ts',
  'src/modules/bots/rebuy-reserve.test.ts',
  'src/lib/account-lock.test.ts',
];

export default defineConfig({
  test: {
    passWithNoTests: true,
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine, where many
    // files mostly wait (on PostgreSQL, child processes, timers). One more worker than cores keeps both cores
    // busy: three on two cores took `npm test`'s tests from 9 to 7 minutes and the PostgreSQL tests from
    // 8½ to 5½.
    maxWorkers: availableParallelism() + 1,
    reporters: ['default', './scripts/summary-reporter.ts'],
    projects: [
      project('shared', 'packages/shared'),
      project('engine', 'packages/engine'),
      project('exchange', 'packages/exchange'),
      project('db', 'packages/db', { testTimeout: 30_000, hookTimeout: 60_000, globalSetup: [pgliteDump] }),
      project('server', 'apps/server', {
        // Test files share their worker's modules (Fastify, ccxt, viem and the app evaluated once per worker, not
        // once per file: 244 s → 150 s for the project). Safe because the server keeps no per-process state in
        // modules (process-state.ts objects belong to each app a test builds) and no test replaces a module.
        isolate: false,
        testTimeout: 30_000,
        hookTimeout: 60_000,
        globalSetup: [pgliteDump],
        exclude: [...configDefaults.exclude, 'src/**/*.pg.test.ts'],
      }),
      // What needs PostgreSQL itself (concurrent transactions, crash tests across processes, several workers on
      // one database): `npm run test:pg` only. The rest of the server's tests run on PGlite, which is
      // PostgreSQL's own engine in one connection; the money races run on both, overlapping inside the database
      // only on PostgreSQL.
      ...(process.env.TEST_DATABASE_URL
        ? [
            project('server-pg', 'apps/server', {
              include: ['src/**/*.pg.test.ts', ...MONEY_RACES],
              exclude: [...configDefaults.exclude, ...MEASURED_ALONE],
              // The servers these tests start run from a bundle (testing/server-process.ts).
              globalSetup: [serverBundles],
              isolate: false,
              testTimeout: 30_000,
              hookTimeout: 60_000,
            }),
            project('server-pg-alone', 'apps/server', {
              include: MEASURED_ALONE,
              globalSetup: [serverBundles],
              fileParallelism: false,
              sequence: { groupOrder: 1 },
              testTimeout: 30_000,
              hookTimeout: 60_000,
            }),
          ]
        : []),
      // happy-dom rather than jsdom: half the environment's start-up time and a sixth less test time, on the
      // same Testing Library queries and user-event.
      project('web', 'apps/web', { environment: 'happy-dom', setupFiles: ['src/testing/setup-tests.ts'] }),
      // Repository-wide checks (the dependency rules of docs/architecture.md §2).
      project('repo', '.', { include: ['scripts/**/*.test.ts'] }),
    ],
  },
});
