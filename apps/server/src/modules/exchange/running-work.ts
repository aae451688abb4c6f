import { bots, cycles, type Db } from '@gridbot/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { RunningWork } from '../../deps';

/** Running means a Live or Pause bot, or a cycle waiting to buy or holding (DESIGN §2.4 states). */
export function runningWorkOf(db: Db): RunningWork {
  return {
    async hasRunning(userId) {
      const [bot] = await db
        .select({ id: bots.id })
        .from(bots)
        .where(and(eq(bots.userId, userId), inArray(bots.status, ['Live', 'Pause'])))
        .limit(1);
      if (bot) return true;
      const [cycle] = await db
        .select({ id: cycles.id })
        .from(cycles)
        .where(and(eq(cycles.userId, userId), inArray(cycles.status, ['WaitBuy', 'Holding'])))
        .limit(1);
      return cycle !== undefined;
    },
  };
}
