import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type DbHandle } from '../create-db';
import { MIGRATED_DUMP_ENV, readPgliteDump } from './pglite-dump';

/**
 * A throwaway migrated database for one test file (docs/contributing.md §6): an in-memory PGlite by default, or a fresh
 * PostgreSQL database created next to `TEST_DATABASE_URL` when that is set (CI runs both).
 * The PGlite one starts from the run's migrated dump when Vitest's global setup made one (`pglite-dump.setup.ts`);
 * `createDb` still applies any migration the dump lacks. `close()` drops the PostgreSQL database again.
 */
export async function createTestDb(): Promise<DbHandle> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    const dump = process.env[MIGRATED_DUMP_ENV];
    return createDb(dump ? { pgliteDump: await readPgliteDump(dump) } : {});
  }

  const name = `gridbot_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = await createDb({ databaseUrl: url.toString(), maxConnections: 5 });
  return {
    ...handle,
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
