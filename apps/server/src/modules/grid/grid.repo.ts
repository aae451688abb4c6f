import { botFills, botIntents, bots, type Db } from '@gridbot/db';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';

export type GridRow = typeof bots.$inferSelect;

/** The user's range grids, running first, then newest first (docs/trading-rules.md §2.6). */
export async function listGridBots(db: Db, userId: string): Promise<GridRow[]> {
  return db
    .select()
    .from(bots)
    .where(and(eq(bots.userId, userId), eq(bots.botType, 'range')))
    .orderBy(asc(sql`case when ${bots.status} = 'Stopped' then 1 else 0 end`), desc(bots.createdAt));
}

/** The user's range grid, or undefined: another user's grid reads as absent (404). */
export async function findGridBot(db: Db, userId: string, botId: string): Promise<GridRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(botId)) return undefined;
  const [row] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.id, botId), eq(bots.userId, userId), eq(bots.botType, 'range')))
    .limit(1);
  return row;
}

/** The client order ids the grid's resting orders were sent with, by intent sequence. */
export async function clientOrderIds(db: Db, botId: string, seqs: readonly number[]) {
  if (seqs.length === 0) return new Map<number, string>();
  const rows = await db
    .select({ seq: botIntents.seq, id: botIntents.clientOrderId })
    .from(botIntents)
    .where(and(eq(botIntents.botId, botId), inArray(botIntents.seq, [...seqs])));
  return new Map(rows.map((r) => [r.seq, r.id]));
}

/** The grid's fills, newest first, read through its owner (another user's grid has none). */
export async function gridFills(db: Db, userId: string, botId: string) {
  return db
    .select({
      timeMs: botFills.timeMs,
      side: botFills.side,
      seq: botFills.seq,
      grid: botFills.grid,
      price: botFills.price,
      qty: botFills.qty,
      quote: botFills.quote,
      fee: botFills.fee,
      feeAsset: botFills.feeAsset,
      feePaid: botFills.feePaid,
      pnl: botFills.pnl,
      kind: botIntents.kind,
    })
    .from(botFills)
    .innerJoin(bots, eq(bots.id, botFills.botId))
    .leftJoin(botIntents, and(eq(botIntents.botId, botFills.botId), eq(botIntents.seq, botFills.seq)))
    .where(and(eq(botFills.botId, botId), eq(botFills.userId, userId), eq(bots.userId, userId)))
    .orderBy(desc(botFills.timeMs), desc(botFills.id))
    .limit(1000);
}
