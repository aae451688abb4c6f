import { bots, type Db } from '@gridbot/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { RunningWork } from '../../deps';

/** Running means a Live, Pause or Stopping bot or cycle (cycles are bots rows with bot_type 'cycle'). */
export function runningWorkOf(db: Db): RunningWork {
  return {
    async hasRunning(userId) {
      const [bot] = await db
        .select({ id: bots.id })
        .from(bots)
        .where(and(eq(bots.userId, userId), inArray(bots.status, ['Live', 'Pause', 'Stopping'])))
        .limit(1);
      return bot !== undefined;
    },
  };
}
