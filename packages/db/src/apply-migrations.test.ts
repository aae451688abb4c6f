import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterEach, describe, expect, it } from 'vitest';
import { applyMigrations } from './apply-migrations';
import type { Db } from './create-db';

interface Migration {
  tag: string;
  when: number;
  sql: string;
}

const folders: string[] = [];

function migrationsFolder(migrations: Migration[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'gridbot-migrations-'));
  folders.push(folder);
  mkdirSync(join(folder, 'meta'));
  const entries = migrations.map((m, idx) => ({
    idx,
    version: '7',
    when: m.when,
    tag: m.tag,
    breakpoints: true,
  }));
  writeFileSync(
    join(folder, 'meta', '_journal.json'),
    JSON.stringify({ version: '7', dialect: 'postgresql', entries }),
  );
  for (const m of migrations) writeFileSync(join(folder, `${m.tag}.sql`), m.sql);
  return folder;
}

async function tables(db: Db): Promise<string[]> {
  const result = await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  return (result as unknown as { rows: { table_name: string }[] }).rows.map((row) => row.table_name);
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('applyMigrations', () => {
  const first: Migration = { tag: '0000_a', when: 2_000, sql: 'CREATE TABLE a (id int);' };
  // Its journal time sorts below the first one's, as when two lines of work were merged out of order.
  const second: Migration = {
    tag: '0001_b',
    when: 1_000,
    sql: 'CREATE TABLE b (id int);\n--> statement-breakpoint\nCREATE TABLE c (id int);',
  };

  it('applies a later migration whose journal time sorts below one the database already has', async () => {
    const client = new PGlite();
    const db = drizzle(client) as unknown as Db;
    expect(await applyMigrations(db, migrationsFolder([first]))).toBe(1);
    expect(await applyMigrations(db, migrationsFolder([first, second]))).toBe(1);
    expect(await tables(db)).toEqual(['a', 'b', 'c']);
    await client.close();
  });

  it('applies nothing the second time', async () => {
    const client = new PGlite();
    const db = drizzle(client) as unknown as Db;
    const folder = migrationsFolder([first, second]);
    expect(await applyMigrations(db, folder)).toBe(2);
    expect(await applyMigrations(db, folder)).toBe(0);
    await client.close();
  });

  it('takes over a database drizzle migrated: the recorded migrations are not run again', async () => {
    const client = new PGlite();
    const db = drizzle(client);
    const folder = migrationsFolder([first, second]);
    await migrate(db, { migrationsFolder: folder });
    expect(await applyMigrations(db as unknown as Db, folder)).toBe(0);
    await client.close();
  });

  it('applies none of a migration that fails, and keeps the ones before it', async () => {
    const client = new PGlite();
    const db = drizzle(client) as unknown as Db;
    await applyMigrations(db, migrationsFolder([first]));
    const broken: Migration = {
      tag: '0001_broken',
      when: 3_000,
      sql: 'CREATE TABLE d (id int);\n--> statement-breakpoint\nNOT SQL;',
    };
    await expect(applyMigrations(db, migrationsFolder([first, broken]))).rejects.toThrow();
    expect(await tables(db)).toEqual(['a']);
    await client.close();
  });
});
