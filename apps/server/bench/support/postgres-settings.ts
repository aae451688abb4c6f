// The PostgreSQL settings a server bench ran with, printed beside its figures: a commit costs one WAL flush
// (docs/operations.md "PostgreSQL for this workload"), and a figure means little without the settings behind it.
import type { Db } from '@gridbot/db';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/worker/rows';

/** The settings that decide what a commit costs and how many connections the processes may open. */
const SHOWN = [
  'server_version',
  'synchronous_commit',
  'fsync',
  'wal_sync_method',
  'commit_delay',
  'shared_buffers',
  'wal_buffers',
  'max_connections',
];

/** One line: each of `SHOWN` as `name value`, as the server shows it. */
export async function postgresSettings(db: Db): Promise<string> {
  const rows = rowsOf<{ name: string; value: string }>(
    await db.execute(sql`
      select name, current_setting(name) as value from pg_settings
      where name = any(${`{${SHOWN.join(',')}}`}::text[])`),
  );
  const shown = new Map(rows.map((row) => [row.name, row.value]));
  return `PostgreSQL: ${SHOWN.map((name) => `${name} ${shown.get(name) ?? '?'}`).join(', ')}`;
}
