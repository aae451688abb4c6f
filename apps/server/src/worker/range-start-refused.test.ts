/**
 * A range grid whose quantity per order at the price it starts at is below the exchange's minimum order
 * (docs/trading-rules.md §2.6: such a start is refused). Start Grid checks it at the price of the request; the
 * price can move before the first tick, or a trigger far from it starts the grid elsewhere. The runtime then
 * sends nothing (no order the exchange would refuse, no market buy of nothing) and halts the grid with the
 * reason, which its page shows.
 *
 * Figures: ETHUSDT spot, 3 USDT on 1900–2100 in 4 levels, first tick at 2000:
 * q = floor(3 / (1900 + 1950 + 2000 × 2) / 0.0001) × 0.0001 = 0.0003, and 0.0003 × 1900 = 0.57 USDT.
 */
import { botIntents, bots, createTestDb, type DbHandle } from '@gridbot/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethGridOnPaper } from '../testing/range-on-paper';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());

describe('a range grid too small to start at its first price', () => {
  it('sends nothing and is halted with the reason', async () => {
    const grid = await ethGridOnPaper(handle.db, { keySeed: 23, investment: 3 });
    const { paper, userId, botId } = grid;
    const supervisor = grid.supervisor();
    await supervisor.start();
    try {
      const runner = supervisor.rangeRunner(botId);
      grid.move('2000');
      await runner?.serial(async () => {});
      const [row] = await handle.db.select().from(bots).where(eq(bots.id, botId));
      expect(row!.status).toBe('Pause');
      expect(row!.haltReason).toMatch(
        /^The grid cannot start at 2000: an order of 0\.0003 at 1900 is 0\.57 USDT, below the minimum order of [\d.]+ USDT for ETHUSDT/,
      );
      expect(runner?.currentState.status).toBe('Waiting');
      expect(await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId))).toEqual([]);
      expect(await paper.forUser(userId).openOrders('spot', 'ETHUSDT')).toEqual([]);
    } finally {
      await supervisor.stop();
      await paper.stop();
    }
  }, 60_000);
});
