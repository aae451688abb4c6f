/**
 * A range grid's market order that reaches Binance after its request went unanswered (docs/trading-rules.md
 * §3): a -1007 "does not always mean that the request failed in the Matching Engine", and Binance processes
 * a request until its `timestamp + recvWindow` ([spot rest-api.md] "General API Information", "Timing
 * security"). The runtime that loads the grid again before then must not take "Order does not exist." for
 * final: the order is bought once.
 *
 * Figures as in `range-binance-double.test.ts`: 1000 USDT on 1900–2100 in 4 levels of 50, started at 2000;
 * the start buys 2q = 0.2546 ETH at market.
 */
import { botFills, createTestDb, type DbHandle } from '@gridbot/db';
import { type Fault as BinanceFault, eventually } from '@gridbot/exchange/testing';
import { money, rangeStrategySchema } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOrderIdOf } from '../modules/bots';
import { binanceClientOf, supervisorOnBinance } from '../testing/binance-client';
import { insertBot } from '../testing/bot-fixtures';
import { settledRange } from '../testing/range-fixtures';
import { ethGridOnBinance } from '../testing/range-on-binance';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());

/**
 * recvWindow of the adapter's signed requests: shortened from Binance's 5 s so the test takes seconds, and
 * long enough past the late orders' 1.2 s that a loaded host's late timer still executes them.
 */
const RECV_WINDOW_MS = 3000;

/** The start buy of a grid whose placements meet `faults` in turn; the grid is loaded again 50 ms after each. */
async function gridWhoseStartBuyMeets(keySeed: number, faults: readonly BinanceFault[]) {
  const params = rangeStrategySchema.parse({ type: 'range', lower: 1900, upper: 2100, grids: 4 });
  const grid = await ethGridOnBinance(handle.db, {
    market: 'spot',
    params,
    investment: 1000,
    keySeed,
    soleBot: true,
  });
  const exchange = binanceClientOf(grid.fake, { recvWindowMs: RECV_WINDOW_MS, timeoutMs: 1000 });
  for (const fault of faults) grid.fake.inject('POST /api/v3/order', fault);
  const supervisor = supervisorOnBinance(handle.db, grid.feed, exchange, { reloadDelayMs: 50 });
  return { ...grid, supervisor };
}

/** Once the grid settled past the last order's window: its start buy, executed and booked once. */
async function expectBoughtOnce(
  grid: Awaited<ReturnType<typeof gridWhoseStartBuyMeets>>,
  outcomes: string[],
) {
  const { fake, botId, supervisor } = grid;
  const startBuy = clientOrderIdOf(botId, 1);
  await eventually(async () => expect((await grid.fillRows()).length).toBeGreaterThan(0), 20_000);
  await settledRange(supervisor, botId);
  // Past the request's window nothing more can arrive.
  await new Promise((resolve) => setTimeout(resolve, RECV_WINDOW_MS + 1000));
  await settledRange(supervisor, botId);
  // Every placement the double received, the one reset before it reached the engine among them.
  const markets = fake.requests.filter(
    (r) => `${r.method} ${r.path}` === 'POST /api/v3/order' && r.params.type === 'MARKET',
  );
  expect(markets.map((r) => [r.params.newClientOrderId, r.outcome])).toEqual(
    outcomes.map((outcome) => [startBuy, outcome]),
  );
  expect(fake.book.executedWithId(startBuy).map((o) => o.executedQty.toFixed())).toEqual(['0.2546']);
  const fills = await grid.fillRows();
  expect(fills.map((f) => [f.clientOrderId, money(f.qty).toFixed()])).toEqual([[startBuy, '0.2546']]);
  // The grid then lays out its limits as usual.
  expect(supervisor.rangeRunner(botId)!.currentState.orders.map((o) => o.price)).toEqual([
    1900, 1950, 2050, 2100,
  ]);
}

const lateBy1200: BinanceFault = { kind: 'lateOrder', answer: 'timeout', delayMs: 1200 };

describe("a range grid's market order that reaches Binance after its request went unanswered", {
  timeout: 60_000,
}, () => {
  it('is bought once by the runtime that loads the grid again before the order arrives', async () => {
    // The start buy: -1007, executed 1.2 s later, within its recvWindow.
    const grid = await gridWhoseStartBuyMeets(41, [lateBy1200]);
    const { fake, supervisor, move } = grid;
    await supervisor.start();
    try {
      move('2000');
      await expectBoughtOnce(grid, ['lateOrder']);
    } finally {
      await supervisor.stop();
      await fake.close();
    }
  });

  it('is bought once when the order sent again after the window meets the same fault', async () => {
    // The first placement never reaches the engine; the one sent after its window gets a -1007 and
    // executes 1.2 s later: the next load counts its window from that second call, not from the first.
    const grid = await gridWhoseStartBuyMeets(42, [{ kind: 'resetBefore' }, lateBy1200]);
    const { fake, supervisor, move } = grid;
    await supervisor.start();
    try {
      move('2000');
      await expectBoughtOnce(grid, ['resetBefore', 'lateOrder']);
    } finally {
      await supervisor.stop();
      await fake.close();
    }
  });

  it("is one order when a resting buy's answer is lost and it fills at once on arrival", async () => {
    const grid = await gridWhoseStartBuyMeets(43, []);
    const { fake, supervisor, botId, move } = grid;
    await supervisor.start();
    try {
      move('2000');
      await settledRange(supervisor, botId);
      await settledRange(supervisor, botId);
      // The sell at 2050 fills; the buy that answers it at 2000 gets a -1007 and reaches the engine 1.2 s
      // later, when the price stands below it: it fills at once. The grid is loaded again before then.
      fake.inject('POST /api/v3/order', lateBy1200);
      move('2050');
      await eventually(async () => expect(lateBuys()).toHaveLength(1), 10_000);
      move('1990');
      await new Promise((resolve) => setTimeout(resolve, RECV_WINDOW_MS + 1500));
      await settledRange(supervisor, botId);
      const cid = lateBuys()[0]!.params.newClientOrderId as string;
      // Placed once, executed once, booked once: not laid out again as an order that never arrived.
      const posts = fake.requests.filter(
        (r) => `${r.method} ${r.path}` === 'POST /api/v3/order' && r.params.newClientOrderId === cid,
      );
      expect(posts.map((r) => r.outcome)).toEqual(['lateOrder']);
      expect(fake.book.executedWithId(cid)).toHaveLength(1);
      expect((await grid.fillRows()).filter((f) => f.clientOrderId === cid)).toHaveLength(1);
    } finally {
      await supervisor.stop();
      await fake.close();
    }

    function lateBuys() {
      return fake.requests.filter((r) => r.outcome === 'lateOrder' && r.params.side === 'BUY');
    }
  });

  it('holds back no other bot at the start while it waits out the window of its order', async () => {
    // The start buy is reset before it reaches the engine, and nothing says so: whoever loads the grid waits
    // out the buy's window (a recvWindow of 8 s here) before it may count it as never arrived.
    const grid = await gridWhoseStartBuyMeets(44, [{ kind: 'resetBefore' }]);
    const { fake, feed, botId, move } = grid;
    const exchange = binanceClientOf(fake, { recvWindowMs: 8000, timeoutMs: 1000 });
    const first = supervisorOnBinance(handle.db, feed, exchange, { reloadDelayMs: 50 });
    await first.start();
    move('2000');
    await eventually(async () => expect(fake.requests.map((r) => r.outcome)).toContain('resetBefore'));
    await first.stop();
    // A Multigrid bot of the same member on BTCUSDT, read in the batch after the grid's.
    const other = await insertBot(handle.db, grid.userId, { symbol: 'BTCUSDT', investment: 1000 });
    fake.setPrice('BTCUSDT', 'spot', '60000');
    const next = supervisorOnBinance(handle.db, feed, exchange, { launchBatch: 1 });
    const started = next.start();
    try {
      await eventually(async () => expect(next.runner(other)).toBeDefined(), 5000);
      feed.setPrice('BTCUSDT', 'spot', '60000');
      await eventually(async () => {
        const fills = await handle.db.select().from(botFills).where(eq(botFills.botId, other));
        expect(fills).toHaveLength(1);
      }, 5000);
      // The grid is still waiting out its buy's window meanwhile, then buys once.
      expect(next.rangeRunner(botId)).toBeUndefined();
      await started;
      await eventually(async () => expect(await grid.fillRows()).toHaveLength(1), 10_000);
      const startBuy = clientOrderIdOf(botId, 1);
      expect(fake.book.executedWithId(startBuy)).toHaveLength(1);
    } finally {
      await started;
      await next.stop();
      await fake.close();
    }
  });
});
