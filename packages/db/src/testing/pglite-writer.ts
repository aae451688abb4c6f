// Child process of pglite-durability.test.ts: opens the embedded database in the given directory and commits
// one row at a time, telling the parent after each commit, until it is killed.
import { sql } from 'drizzle-orm';
import { createDb } from '../create-db';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: pglite-writer.ts DATA_DIR');
const { db } = await createDb({ dataDir });
await db.execute(sql`create table if not exists durability_probe (n integer primary key)`);
const found = await db.execute(sql`select coalesce(max(n), 0)::int as top from durability_probe`);
const top = (found as unknown as { rows: { top: number }[] }).rows[0]?.top ?? 0;
for (let n = top + 1; ; n += 1) {
  await db.execute(sql`insert into durability_probe (n) values (${n})`);
  process.send?.(n);
}
