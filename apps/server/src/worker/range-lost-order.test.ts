/**
 * A range grid whose order was written but never sent (docs/trading-rules.md §3 "Intent before order", §2.6
 * "Live"): the runtime stops between writing a buy's intent and sending it, the price moves on while no
 * runtime runs and fills an order beyond the missing one on the exchange. The next runtime ends with one
 * order on every level but one, buys below the empty level and sells above, exactly the orders the exchange
 * holds open.
 */
import { createTestDb, type DbHandle } from '@gridbot/db';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { settledRange } from '../testing/range-fixtures';
import { ethGridOnPaper } from '../testing/range-on-paper';
import { onFaultPoint } from './fault-points';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());
afterEach(() => onFaultPoint(() => {}));

/**
 * Levels 1900, 1950, 2000, 2050, 2100 (0–4), started at 2000: buys at 0 and 1, sells at 3 and 4. The sell at
 * 2050 fills at 2060; its answer, a buy at 2000, is written and the runtime stops before sending it. With no
 * runtime the price falls to 1940 (the buy at 1950 fills on the exchange; 2000 had no order) and goes on to
 * `end`. Returns the grid's levels as `level side` after the next runtime settled at `end`.
 */
async function lostBuy(end: string, seed: number) {
  const grid = await ethGridOnPaper(handle.db, { keySeed: seed });
  const { exchange: ex, botId, move, openPrices } = grid;
  const runtime = () => grid.supervisor({ reloadDelayMs: 60_000 });
  const until = async (done: () => Promise<boolean>) => {
    for (let k = 0; k < 200 && !(await done()); k++) await new Promise((r) => setTimeout(r, 10));
  };

  const first = runtime();
  await first.start();
  move('2000');
  await settledRange(first, botId);
  expect(await openPrices()).toEqual(['1900', '1950', '2050', '2100']);
  // The next intent, the buy that answers the sell at 2050: written, then the process dies before it is sent.
  let dead = false;
  onFaultPoint((point, detail) => {
    if (point === 'intent-written' && detail.botId === botId && !dead) {
      dead = true;
      throw new Error('killed');
    }
  });
  move('2060');
  await until(async () => dead);
  await settledRange(first, botId);
  await first.stop();
  onFaultPoint(() => {});
  expect(await openPrices()).toEqual(['1900', '1950', '2100']);

  move('1940');
  await until(async () => (await openPrices()).length === 2);
  expect(await openPrices()).toEqual(['1900', '2100']);
  move(end);

  const next = runtime();
  await next.start();
  await settledRange(next, botId);
  move(end);
  await settledRange(next, botId);
  // Orders that crossed the price on arrival filled at once; their answers are placed on the next tick.
  move(end);
  await settledRange(next, botId);
  const state = next.rangeRunner(botId)!.currentState;
  const open = await ex.openOrders('spot', 'ETHUSDT');
  expect(open.map((o) => [o.side, o.price, o.quantity]).sort()).toEqual(
    state.orders.map((o) => [o.side, String(o.price), String(o.qty)]).sort(),
  );
  const fills = await grid.fillRows();
  await next.stop();
  await grid.paper.stop();
  return { levels: state.orders.map((o) => `${o.level} ${o.side}`), fills };
}

describe('a range grid order written but never sent', () => {
  it('puts the grid back when the price came back over the missing level', async () => {
    const { levels, fills } = await lostBuy('2010', 11);
    // The coin bought at 1950 and the sell at 2100 are two sells' worth: sells at 2050 and 2100, buys at
    // 1900 and 1950, the level of 2000 (nearest 2010) empty.
    expect(levels).toEqual(['0 buy', '1 buy', '3 sell', '4 sell']);
    // The start buy, the sell at 2050 and the buy at 1950; nothing at 2000, which never reached the exchange.
    expect(fills.map((f) => [f.side, f.grid, Number(f.price)]).sort()).toEqual([
      ['buy', 0, 2000],
      ['buy', 1, 1950],
      ['sell', 3, 2050],
    ]);
  }, 60_000);

  it('fills the missing buy at once when the price still stands below it', async () => {
    const { levels } = await lostBuy('1940', 12);
    // The buy at 1950 placed again above the price fills at once and is answered by a sell at 2000: the
    // level of 1950 (nearest 1940) empty, buy at 1900, sells at 2000, 2050 and 2100.
    expect(levels).toEqual(['0 buy', '2 sell', '3 sell', '4 sell']);
  }, 60_000);
});
