import type { Db } from '@gridbot/db';
import { sql } from 'drizzle-orm';

/** One round trip to the database: throws when it does not answer. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
