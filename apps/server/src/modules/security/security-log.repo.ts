import { type Db, securityEvents, type Tx } from '@gridbot/db';
import { desc, eq, sql } from 'drizzle-orm';

export async function insertSecurityEvent(
  db: Db | Tx,
  row: typeof securityEvents.$inferInsert,
): Promise<void> {
  await db.insert(securityEvents).values(row);
}

/** One page of the user's security events, newest first, with their total. */
export async function securityEventsPage(db: Db, userId: string, offset: number, limit: number) {
  const rows = await db
    .select()
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId))
    .orderBy(desc(securityEvents.id))
    .limit(limit)
    .offset(offset);
  const [count] = await db
    .select({ total: sql<number>`count(*)::integer` })
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId));
  return { rows, total: Number(count?.total ?? 0) };
}
