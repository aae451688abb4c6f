/**
 * A range grid's resting order that the price reached before the exchange filled it (docs/trading-rules.md §2.6
 * "Live", "Fills"): Binance may show the trade that reaches a limit order before the order's fill is visible,
 * or fill others at that price first. The runtime looks the order up again on every tick while the price
 * stands past it, so its fill is booked and answered before anything the line books beyond it.
 *
 * Figures by hand: ETHUSDT spot, 1000 USDT on 1900–2100 in 4 levels of 50, started at 2000: buys at 1900 and
 * 1950, sells at 2050 (0.1273) and 2100 (0.1270), level 2000 empty (as range-binance-double.test.ts).
 */
import { createTestDb, type DbHandle } from '@gridbot/db';
import { eventually } from '@gridbot/exchange/testing';
import { money, rangeStrategySchema } from '@gridbot/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supervisorOnBinance } from '../testing/binance-client';
import { settledRange } from '../testing/range-fixtures';
import { ethGridOnBinance } from '../testing/range-on-binance';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());

describe('a range grid order the price passed before the exchange filled it', () => {
  it('is looked up again while the price stands past it, and its fill answered one level away', async () => {
    const params = rangeStrategySchema.parse({ type: 'range', lower: 1900, upper: 2100, grids: 4 });
    const grid = await ethGridOnBinance(handle.db, { market: 'spot', params, investment: 1000, keySeed: 7 });
    const { fake, exchange, feed, botId } = grid;
    const fills = async () => (await grid.fillRows()).map((f) => [f.side, f.grid, money(f.price).toFixed()]);
    const supervisor = supervisorOnBinance(handle.db, feed, exchange);
    await supervisor.start();
    try {
      feed.setPrice('ETHUSDT', 'spot', '2000');
      await settledRange(supervisor, botId);
      await settledRange(supervisor, botId);
      const levels = () =>
        supervisor.rangeRunner(botId)!.currentState.orders.map((o) => [o.level, o.side, o.price]);
      expect(levels()).toEqual([
        [0, 'buy', 1900],
        [1, 'buy', 1950],
        [3, 'sell', 2050],
        [4, 'sell', 2100],
      ]);

      // The feed trades at 2060 before the double fills the sell at 2050: the line goes on without it.
      feed.setPrice('ETHUSDT', 'spot', '2060');
      await settledRange(supervisor, botId);
      expect(await fills()).toEqual([['buy', 0, '2000']]);
      // The double fills it now; the next tick, still above 2050, books it and answers it with a buy at 2000.
      fake.setPrice('ETHUSDT', 'spot', '2060');
      feed.setPrice('ETHUSDT', 'spot', '2070');
      await settledRange(supervisor, botId);
      await settledRange(supervisor, botId);
      await eventually(async () =>
        expect(await fills()).toEqual([
          ['buy', 0, '2000'],
          ['sell', 3, '2050'],
        ]),
      );
      expect(levels()).toEqual([
        [0, 'buy', 1900],
        [1, 'buy', 1950],
        [2, 'buy', 2000],
        [4, 'sell', 2100],
      ]);
    } finally {
      await supervisor.stop();
      await fake.close();
    }
  }, 60_000);
});
