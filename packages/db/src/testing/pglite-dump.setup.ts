import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
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
  await removeDumpsOfEndedRuns();
  const dir = await mkdtemp(join(tmpdir(), `${DUMP_PREFIX}${process.pid}-`));
  const file = join(dir, 'migrated.tar');
  await writePgliteDump(file);
  process.env[MIGRATED_DUMP_ENV] = file;
  return async () => {
    delete process.env[MIGRATED_DUMP_ENV];
    await rm(dir, { recursive: true, force: true });
  };
}

const DUMP_PREFIX = 'gridbot-pglite-dump-';

/**
 * A run that was killed never ran its teardown: its dump (a few MB) stayed in the temp folder. Each run removes
 * the dumps of runs whose process is gone (the folder's name holds the pid), never one of a run still going.
 */
async function removeDumpsOfEndedRuns(): Promise<void> {
  const names = await readdir(tmpdir()).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(
      name.startsWith(DUMP_PREFIX) ? name.slice(DUMP_PREFIX.length).split('-')[0] : Number.NaN,
    );
    if (Number.isInteger(pid) && pid > 0 && !isRunning(pid)) {
      await rm(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
