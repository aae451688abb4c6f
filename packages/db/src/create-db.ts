import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { applyMigrations } from './apply-migrations';
import * as schema from './schema';

export type Schema = typeof schema;
/** One database type for both drivers: repositories never know which one they run on. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; it has the same query API as `Db`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The connection string of a PostgreSQL database (so another process can open it too). */
  url?: string;
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** PostgreSQL connection string; when absent an embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; absent means in memory (tests). */
  dataDir?: string | undefined;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
  /**
   * PGlite in memory: start from this dump of a data directory (`PGlite.dumpDataDir`) instead of running initdb.
   * Tests start from one migrated dump per run, which saves each test file the initdb and the migrations.
   */
  pgliteDump?: Blob | undefined;
}

/** The pool size of each database `createDb` opened (PGlite: 1). */
const connectionCounts = new WeakMap<Db, number>();

/**
 * How many connections the queries of `db` share: 1 on PGlite, where one backend serves every query and an open
 * transaction makes every other query wait for it; the pool's size on PostgreSQL. A database not opened by
 * `createDb` counts as one connection, the cautious answer.
 */
export function connectionsOf(db: Db): number {
  return connectionCounts.get(db) ?? 1;
}

export const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));

/**
 * The one connection factory (docs/architecture.md §1): PostgreSQL when `databaseUrl` is set, PGlite otherwise.
 * Migrations are applied on open, so a fresh data directory or database is ready at once.
 */
export async function createDb(options: CreateDbOptions = {}): Promise<DbHandle> {
  const shouldMigrate = options.migrate ?? true;
  if (options.databaseUrl) {
    const max = options.maxConnections ?? 10;
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max });
    // An idle connection the server ends (restart, failover, a dropped test database) is reported here;
    // without a listener node-postgres rethrows it and the whole process dies. The pool replaces it.
    pool.on('error', (error) => console.error(`database connection lost: ${error.message}`));
    const db = drizzleNodePg(pool, { schema });
    connectionCounts.set(db as unknown as Db, max);
    if (shouldMigrate) await applyMigrations(db as unknown as Db, migrationsFolder);
    return { db: db as unknown as Db, kind: 'postgres', url: options.databaseUrl, close: () => pool.end() };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = options.dataDir
    ? new PGlite(options.dataDir)
    : new PGlite(options.pgliteDump ? { loadDataDir: options.pgliteDump } : {});
  const db = drizzlePglite(client, { schema });
  if (shouldMigrate) await applyMigrations(db as unknown as Db, migrationsFolder);
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
