import { readFile, writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { applyMigrations } from '../apply-migrations';
import { type Db, migrationsFolder } from '../create-db';

/**
 * Where the test run's migrated PGlite dump lies (set by `pglite-dump.setup.ts`). Starting PGlite runs initdb, which
 * with the migrations costs each test file seconds of CPU; loading a dump skips both.
 */
export const MIGRATED_DUMP_ENV = 'GRIDBOT_TEST_PGLITE_DUMP';

/** Writes a dump of a freshly initialised PGlite data directory, migrated unless `migrate` is false, to `file`. */
export async function writePgliteDump(file: string, options: { migrate?: boolean } = {}): Promise<void> {
  const client = new PGlite();
  try {
    if (options.migrate ?? true) await applyMigrations(drizzle(client) as unknown as Db, migrationsFolder);
    const dump = await client.dumpDataDir('none');
    await writeFile(file, new Uint8Array(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
}

/** The dump at `file`, for `new PGlite({ loadDataDir })` or `createDb({ pgliteDump })`. */
export async function readPgliteDump(file: string): Promise<Blob> {
  return new Blob([await readFile(file)]);
}
