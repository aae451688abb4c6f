import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { Db } from './create-db';

/** Any fixed number: every process that opens the database migrates under this one advisory lock. */
const MIGRATION_LOCK = 727_100_001;

/**
 * Applies every migration of the journal whose hash the database has not recorded, in journal order, in one
 * transaction. drizzle's own migrator applies only the migrations whose journal time is above the newest one
 * recorded, so a migration whose time sorts below an older one's (two lines of work merged out of order) was
 * skipped for ever on an existing database; comparing hashes cannot skip one. The table and its rows are the ones
 * drizzle writes, so databases migrated before keep their history. The advisory lock lets several processes start
 * on one PostgreSQL database at once.
 */
export async function applyMigrations(db: Db, migrationsFolder: string): Promise<number> {
  const migrations = readMigrationFiles({ migrationsFolder });
  await db.execute(sql`create schema if not exists drizzle`);
  await db.execute(
    sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`,
  );
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    const recorded = await tx.execute(sql`select hash from drizzle.__drizzle_migrations`);
    const applied = new Set(
      (recorded as unknown as { rows: { hash: string }[] }).rows.map((row) => row.hash),
    );
    let count = 0;
    for (const migration of migrations) {
      if (applied.has(migration.hash)) continue;
      for (const statement of migration.sql) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
      );
      count += 1;
    }
    return count;
  });
}
