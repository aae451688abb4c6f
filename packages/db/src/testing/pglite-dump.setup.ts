import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATED_DUMP_ENV, writePgliteDump } from './pglite-dump';

/**
 * Vitest global setup: migrates one PGlite database per run and dumps it, so that each test file's `createTestDb`
 * loads that dump instead of running initdb and every migration again. The test workers read the path from the
 * environment. Nothing to do when the tests run on PostgreSQL.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TEST_DATABASE_URL) return undefined;
  // Several projects of one run share the dump; the first one's teardown removes it.
  const existing = process.env[MIGRATED_DUMP_ENV];
  if (existing && existsSync(existing)) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'gridbot-pglite-'));
  const file = join(dir, 'migrated.tar');
  await writePgliteDump(file);
  process.env[MIGRATED_DUMP_ENV] = file;
  return async () => {
    delete process.env[MIGRATED_DUMP_ENV];
    await rm(dir, { recursive: true, force: true });
  };
}
