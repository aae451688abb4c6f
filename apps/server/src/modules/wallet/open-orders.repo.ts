import { bots, type Db, type Tx } from '@gridbot/db';
import { and, eq, inArray } from 'drizzle-orm';

/** What tells a user which bot holds a position or rests an order: its name's parts and its status. */
export const ownerColumns = {
  id: bots.id,
  botType: bots.botType,
  strategyName: bots.strategyName,
  symbol: bots.symbol,
  category: bots.category,
  status: bots.status,
};

/** The user's bots of these ids: what an open order's client order id names. Other users' bots never match. */
export async function botsOfUser(db: Db | Tx, userId: string, botIds: readonly string[]) {
  if (botIds.length === 0) return [];
  return db
    .select(ownerColumns)
    .from(bots)
    .where(and(eq(bots.userId, userId), inArray(bots.id, [...botIds])));
}

export type OrderBotRow = Awaited<ReturnType<typeof botsOfUser>>[number];
