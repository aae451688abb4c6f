import { adminActions, type Db } from '@gridbot/db';
import { count, desc } from 'drizzle-orm';

/** One page of the administrators' actions, newest first, with the total. */
export async function adminActionsPage(db: Db, offset: number, limit: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(adminActions).orderBy(desc(adminActions.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(adminActions),
  ]);
  return { rows, total: total?.n ?? 0 };
}
