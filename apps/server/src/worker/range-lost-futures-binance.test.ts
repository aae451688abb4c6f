/**
 * A futures range grid whose order was written but never sent (docs/trading-rules.md §3 "Intent before order",
 * §2.6 "Live") on the Binance double: the runtime stops between writing an order's intent and sending it, the
 * price moves on while no runtime runs and fills an order beyond the missing one on the exchange. The next
 * runtime lays the grid out from the exchange's position (positionAmt) as a spot grid is laid out from its
 * coin: one level empty, every other level holding one order, the reduce-only orders closing exactly the
 * position held.
 *
 * Figures by hand: ETHUSDT USDⓈ-M (tick 0.01, step 0.001), a long grid of 500 USDT at 2× (1000 USDT of orders)
 * on 1900–2100 in 4 levels (0–4: 1900, 1950, 2000, 2050, 2100), started at 2000:
 * q = floor(1000 / (1900 + 1950 + 2000 × 2) / 0.001) × 0.001 = 0.127. The start buys 2q = 0.254 at market; buys
 * (opening) rest at 1900 and 1950, sells (reduce-only) at 2050 and 2100.
 */
import { botFills, bots, createTestDb, type DbHandle } from '@gridbot/db';
import { money, rangeStrategySchema } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { supervisorOnBinance } from '../testing/binance-client';
import { settledRange } from '../testing/range-fixtures';
import { ethGridOnBinance } from '../testing/range-on-binance';
import { onFaultPoint } from './fault-points';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());
afterEach(() => onFaultPoint(() => {}));

/**
 * The sell at 2050 fills at 2060 (the position falls to 0.127); its answer, an opening buy at 2000, is written
 * and the runtime stops before sending it. With no runtime the price falls to 1940: the buy at 1950 fills on
 * the double (the position is 0.254 again) while 2000 holds no order. The price goes on to `end` and a new
 * runtime starts. Returns what the grid and the double hold once it settled.
 */
async function lostFuturesBuy(end: string, seed: number) {
  const params = rangeStrategySchema.parse({
    type: 'range',
    lower: 1900,
    upper: 2100,
    grids: 4,
    direction: 'long',
    leverage: 2,
  });
  // The one double is this bot's exchange alone: the bots of the tests before are stopped.
  const grid = await ethGridOnBinance(handle.db, {
    market: 'future',
    params,
    investment: 500,
    keySeed: seed,
    soleBot: true,
  });
  const { fake, exchange, feed, botId, move } = grid;
  fake.book.futuresWallet = money('1000');
  await exchange.setLeverage('ETHUSDT', 2);
  const open = () =>
    fake.book
      .openOrders('future', 'ETHUSDT')
      .map((o) => [o.side, o.price.toFixed(), o.origQty.toFixed(), o.reduceOnly])
      .sort();
  const positionAmt = () => fake.book.positions.get('ETHUSDT')?.qty.toFixed() ?? '0';
  const runtime = () => supervisorOnBinance(handle.db, feed, exchange, { reloadDelayMs: 60_000 });

  const first = runtime();
  await first.start();
  move('2000');
  await settledRange(first, botId);
  await settledRange(first, botId);
  expect(open()).toEqual([
    ['BUY', '1900', '0.127', false],
    ['BUY', '1950', '0.127', false],
    ['SELL', '2050', '0.127', true],
    ['SELL', '2100', '0.127', true],
  ]);
  expect(positionAmt()).toBe('0.254');
  // The next intent, the buy that answers the sell at 2050: written, then the process dies before it is sent.
  let dead = false;
  onFaultPoint((point, detail) => {
    if (point === 'intent-written' && detail.botId === botId && !dead) {
      dead = true;
      throw new Error('killed');
    }
  });
  move('2060');
  for (let k = 0; k < 200 && !dead; k++) await new Promise((r) => setTimeout(r, 10));
  await settledRange(first, botId);
  await first.stop();
  onFaultPoint(() => {});
  expect(dead).toBe(true);
  expect(positionAmt()).toBe('0.127');
  expect(open()).toEqual([
    ['BUY', '1900', '0.127', false],
    ['BUY', '1950', '0.127', false],
    ['SELL', '2100', '0.127', true],
  ]);

  move('1940');
  expect(positionAmt()).toBe('0.254');
  move(end);

  const next = runtime();
  await next.start();
  for (let k = 0; k < 3; k++) {
    await settledRange(next, botId);
    // Orders that crossed the price on arrival filled at once; their answers are placed on the next tick.
    move(end);
    await settledRange(next, botId);
  }
  const state = next.rangeRunner(botId)!.currentState;
  const fills = await handle.db.select().from(botFills).where(eq(botFills.botId, botId));
  const result = {
    levels: state.orders.map((o) => [o.level, o.side, o.reduceOnly]),
    open: open(),
    positionAmt: positionAmt(),
    gridPosition: String(state.futures?.pos),
    fills: fills.map((f) => [f.side, f.grid, money(f.price).toFixed(), money(f.qty).toFixed()]).sort(),
    halted: (await handle.db.select().from(bots).where(eq(bots.id, botId)))[0]?.status,
  };
  await next.stop();
  await fake.close();
  return result;
}

describe('a futures range grid order written but never sent, on the Binance double', () => {
  it('lays the grid out from the position when the price came back over the missing level', async () => {
    const r = await lostFuturesBuy('2010', 21);
    // The start buy, the sell at 2050 and the buy at 1950 filled; nothing at 2000, which never reached the
    // exchange.
    expect(r.fills).toEqual([
      ['buy', 0, '2000', '0.254'],
      ['buy', 1, '1950', '0.127'],
      ['sell', 3, '2050', '0.127'],
    ]);
    // The position, 0.254, is two closing sells' worth: reduce-only sells at 2050 and 2100, the level below
    // them (2000, nearest 2010) empty, opening buys at 1900 and 1950. Sent again as it was, the buy at 2000
    // would have held the level the buy at 1950's answer belongs on: buys at 1900 and 2000, one sell at 2100
    // for a position of two, 1950 and 2050 empty.
    expect(r.levels).toEqual([
      [0, 'buy', false],
      [1, 'buy', false],
      [3, 'sell', true],
      [4, 'sell', true],
    ]);
    expect(r.open).toEqual([
      ['BUY', '1900', '0.127', false],
      ['BUY', '1950', '0.127', false],
      ['SELL', '2050', '0.127', true],
      ['SELL', '2100', '0.127', true],
    ]);
    expect(r.positionAmt).toBe('0.254');
    expect(r.gridPosition).toBe('0.254');
    expect(r.halted).toBe('Live');
  }, 60_000);

  it('fills the missing level at once when the price still stands below it', async () => {
    const r = await lostFuturesBuy('1940', 22);
    // Laid out at 1940 as at 2010, the buy at 1950 crosses the price and fills at once (the position grows to
    // 0.381) and a reduce-only sell answers it at 2000: buy at 1900, three closing sells of 0.127 for 0.381.
    expect(r.levels).toEqual([
      [0, 'buy', false],
      [2, 'sell', true],
      [3, 'sell', true],
      [4, 'sell', true],
    ]);
    expect(r.open).toEqual([
      ['BUY', '1900', '0.127', false],
      ['SELL', '2000', '0.127', true],
      ['SELL', '2050', '0.127', true],
      ['SELL', '2100', '0.127', true],
    ]);
    expect(r.positionAmt).toBe('0.381');
    expect(r.gridPosition).toBe('0.381');
  }, 60_000);
});
