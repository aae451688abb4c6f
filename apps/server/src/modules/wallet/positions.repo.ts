import { bots, type Db, type Tx } from '@gridbot/db';
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { ownerColumns } from './open-orders.repo';

/**
 * The user's futures bots on these pairs, newest first, with their engine states: what a position may belong
 * to (a running bot, or one stopped without a sale that still holds lots). Other users' bots never match.
 */
export async function futuresBotsOn(db: Db | Tx, userId: string, symbols: readonly string[]) {
  if (symbols.length === 0) return [];
  return db
    .select({
      ...ownerColumns,
      engineState: bots.engineState,
      positionClosedAt: bots.positionClosedAt,
    })
    .from(bots)
    .where(and(eq(bots.userId, userId), eq(bots.category, 'Future'), inArray(bots.symbol, [...symbols])))
    .orderBy(desc(bots.createdAt));
}

export type FuturesBotRow = Awaited<ReturnType<typeof futuresBotsOn>>[number];

/**
 * Records that the position the user's stopped futures bots on `symbol` left open was closed from the
 * Positions panel, at `price`: one position per pair, so every such bot's lots went with it. Their lots and
 * figures stay as the bots left them.
 */
export async function markPositionClosed(
  db: Db | Tx,
  userId: string,
  symbol: string,
  botIds: readonly string[],
  close: { at: Date; price: string | null },
) {
  if (botIds.length === 0) return;
  await db
    .update(bots)
    .set({ positionClosedAt: close.at, positionClosedPrice: close.price })
    .where(
      and(
        eq(bots.userId, userId),
        eq(bots.symbol, symbol),
        eq(bots.status, 'Stopped'),
        inArray(bots.id, [...botIds]),
        isNull(bots.positionClosedAt),
      ),
    );
}
