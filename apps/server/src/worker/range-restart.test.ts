/**
 * A range grid across a restart (docs/trading-rules.md §3, §2.6): the runtime stops while its orders rest, one
 * of them fills while no runtime runs, and the next runtime books that fill once, answers it, and holds exactly
 * the orders the exchange holds open, one per level; a second restart books nothing more.
 */
import { createTestDb, type DbHandle } from '@gridbot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethGridOnPaper } from '../testing/range-on-paper';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());

describe('a range grid across a restart', () => {
  it('books a fill made while no runtime ran once, and holds the orders the exchange holds', async () => {
    const grid = await ethGridOnPaper(handle.db, { keySeed: 6 });
    const { exchange: ex, botId, move } = grid;
    const first = grid.supervisor();
    await first.start();
    move('2000');
    await first.rangeRunner(botId)?.serial(async () => {});
    expect(first.rangeRunner(botId)?.currentState.orders.map((o) => o.level)).toEqual([0, 1, 3, 4]);
    await first.stop();

    // No runtime: the buy at 1950 fills on the exchange alone.
    move('1940');
    for (let k = 0; k < 100 && (await ex.openOrders('spot', 'ETHUSDT')).length === 4; k++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await ex.openOrders('spot', 'ETHUSDT')).map((o) => o.price)).toEqual(['1900', '2050', '2100']);

    for (let restart = 0; restart < 2; restart++) {
      const next = grid.supervisor();
      await next.start();
      await next.rangeRunner(botId)?.serial(async () => {});
      move('1945');
      await next.rangeRunner(botId)?.serial(async () => {});
      const state = next.rangeRunner(botId)!.currentState;
      // The buy at 1950 booked once, answered by a sell at 2000: levels 0, 2, 3, 4, none twice.
      expect(state.orders.map((o) => o.level)).toEqual([0, 2, 3, 4]);
      const open = await ex.openOrders('spot', 'ETHUSDT');
      expect(open.map((o) => o.price).sort()).toEqual(['1900', '2000', '2050', '2100']);
      expect(open.map((o) => [o.side, o.quantity]).sort()).toEqual(
        state.orders.map((o) => [o.side, String(o.qty)]).sort(),
      );
      const fills = await grid.fillRows();
      // The start buy and the buy at 1950, each once.
      expect(fills.map((f) => [f.side, f.grid, Number(f.price)]).sort()).toEqual([
        ['buy', 0, 2000],
        ['buy', 1, 1950],
      ]);
      await next.stop();
    }
    await grid.paper.stop();
  }, 120_000);
});
