import { bots, type Db, type Tx } from '@gridbot/db';
import { and, desc, eq, inArray } from 'drizzle-orm';

/**
 * The user's futures bots on these pairs, newest first, with their engine states: what a position may belong
 * to (a running bot, or one stopped without a sale that still holds lots). Other users' bots never match.
 */
export async function futuresBotsOn(db: Db | Tx, userId: string, symbols: readonly string[]) {
  if (symbols.length === 0) return [];
  return db
    .select({
      id: bots.id,
      botType: bots.botType,
      strategyName: bots.strategyName,
      symbol: bots.symbol,
      category: bots.category,
      status: bots.status,
      engineState: bots.engineState,
    })
    .from(bots)
    .where(and(eq(bots.userId, userId), eq(bots.category, 'Future'), inArray(bots.symbol, [...symbols])))
    .orderBy(desc(bots.createdAt));
}

export type FuturesBotRow = Awaited<ReturnType<typeof futuresBotsOn>>[number];
