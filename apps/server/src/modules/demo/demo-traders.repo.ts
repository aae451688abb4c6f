import { botFills, type Db } from '@gridbot/db';
import type { FillRecord } from '@gridbot/engine';

/** A sample bot's backtest fills as its fill history, numbered 1…n in time order (the bot's own intents follow). */
export async function insertDemoFills(db: Db, botId: string, userId: string, fills: FillRecord[]) {
  if (fills.length === 0) return;
  await db.insert(botFills).values(
    fills.map((f, i) => ({
      botId,
      userId,
      seq: i + 1,
      side: f.side,
      grid: f.grid,
      price: String(f.price),
      qty: String(f.qty),
      quote: String(f.quote),
      fee: String(f.fee),
      pnl: f.side === 'sell' ? String(f.pnl) : null,
      timeMs: f.time,
      clientOrderId: `demo-${botId.slice(0, 8)}-${i + 1}`,
    })),
  );
}
