/**
 * Futures range grids that go short on the Binance double, in the cases only Binance runs here (docs/trading-rules.md
 * §2.6, "Live (Binance)", §3): trailing down, and a reduce-only order expired after a part. The cases every venue
 * runs alike are in range-shorts-venues.test.ts.
 *
 * Figures by hand: ETHUSDT USDⓈ-M (tick 0.01, step 0.001), 500 USDT at 2× (1000 USDT of orders) on 1900–2100 in 4
 * levels of 50, started at 2000. Neutral, every order opens, so q = floor(1000 / (1900 + 1950 + 2050 + 2100) / 0.001)
 * × 0.001 = 0.125: buys (not reduce-only) at 1900 and 1950, sells (not reduce-only) at 2050 and 2100. Short (§2.6
 * "Short: mirror"), q = floor(1000 / (2000 × 2 + 2050 + 2100) / 0.001) × 0.001 = 0.122: the start sells 2q = 0.244
 * at market, the buys at 1900 and 1950 close it reduce-only. Resting orders fill as makers (0.02 %), market orders
 * as takers (0.05 %).
 */
import { bots, createTestDb, type DbHandle } from '@gridbot/db';
import { money } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOrderIdOf } from '../modules/bots';
import { binanceShorts, expectEachFillOnce, futuresGridOn } from '../testing/range-shorts';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());

/**
 * A Live futures range grid row on ETHUSDT, 500 USDT at 2× on 1900–2100 in 4 levels, and a runtime trading it on
 * the Binance double (one-way mode, isolated at 2×, 1000 USDT in the futures wallet) at 2000.
 */
async function futuresGridOnDouble(direction: 'short' | 'neutral', keyByte: number, trailingDown = false) {
  const { fake, double } = await binanceShorts();
  const grid = await futuresGridOn(handle.db, double, direction, keyByte, trailingDown);
  return {
    ...grid,
    fake,
    double,
    /** The double's one-way position (positionAmt, negative for a short). */
    positionAmt: double.position,
  };
}

/**
 * Trailing down a short grid on the Binance double (§2.6 "Trailing down": at one spacing below the bottom the
 * order on the top level is cancelled, q is sold at market, a buy answers it at the new bottom level, and the
 * grid moves down one level). The short grid with `trailingDown`: q = 0.122, levels 1900–2100.
 */
describe('a short futures range grid trailing down on the Binance double', () => {
  it('moves down one level below the bottom, holding the short it sold until the price goes on through its buy', async () => {
    const grid = await futuresGridOnDouble('short', 7, true);
    const { fake, double, supervisor, move, fills, resting, positionAmt, gridPosition } = grid;
    const open = () =>
      fake.book
        .openOrders('future', 'ETHUSDT')
        .map((o) => [o.side, o.price.toFixed(), o.reduceOnly])
        .sort();
    const brief = async () =>
      (await fills()).map((f) => [f.side, f.grid, money(f.price).toFixed(), money(f.fee).toFixed()]);
    const limitBuysAt = (price: string) =>
      fake.orderPosts('future').filter((r) => r.params.type === 'LIMIT' && r.params.price === price).length;
    try {
      await move('2000');
      expect(positionAmt()).toBe('-0.244');
      // Down to 1950, then 1900: both reduce-only buys close the short (maker fees 0.04758 and 0.04636) and are
      // answered by opening sells at 2000 and 1950. Flat, 1900 empty, sells at 1950–2100.
      await move('1950');
      await move('1900');
      expect(positionAmt()).toBe('0');
      expect(open()).toEqual([
        ['SELL', '1950', false],
        ['SELL', '2000', false],
        ['SELL', '2050', false],
        ['SELL', '2100', false],
      ]);

      // 1850, one spacing below the bottom: the sell on the top level (2100) is cancelled and 0.122 is sold at
      // market, opening a short (225.7 USDT, taker fee 0.11285). The grid is 1850–2050; the buy that closes the
      // short belongs on 1850, where the price stands: it rests there until the price goes on down through
      // it (§2.6 fill model), so the runtime sends it once the price has left its level, and the short stays.
      await move('1850');
      expect(positionAmt()).toBe('-0.122');
      expect(gridPosition()).toBe('-0.122');
      expect((await brief()).at(-1)).toEqual(['sell', 0, '1850', '0.11285']);
      expect(open()).toEqual([
        ['SELL', '1950', false],
        ['SELL', '2000', false],
        ['SELL', '2050', false],
      ]);
      expect(limitBuysAt('1850')).toBe(0);
      await move('1850');
      expect(positionAmt()).toBe('-0.122');

      // Back up to 1860: the buy goes out at 1850 reduce-only and rests; the short is still held.
      await move('1860');
      expect(open()).toEqual([
        ['BUY', '1850', true],
        ['SELL', '1950', false],
        ['SELL', '2000', false],
        ['SELL', '2050', false],
      ]);
      expect(resting()).toContainEqual([-1, 'buy', 1850, true]);
      expect(positionAmt()).toBe('-0.122');

      // Down to 1840: the buy fills at 1850 as a maker (fee 0.04514) and closes the short: the pair's profit is
      // 225.7 − 0.11285 − (225.7 + 0.04514) = −0.15799, the two fees. An opening sell answers it at 1900.
      await move('1840');
      await move('1840');
      expect(positionAmt()).toBe('0');
      expect(gridPosition()).toBe('0');
      const closing = (await fills()).at(-1)!;
      expect([
        closing.side,
        closing.grid,
        money(closing.price).toFixed(),
        money(closing.fee).toFixed(),
      ]).toEqual(['buy', -1, '1850', '0.04514']);
      expect(money(closing.pnl!).toFixed()).toBe('-0.15799');
      expect(open()).toEqual([
        ['SELL', '1900', false],
        ['SELL', '1950', false],
        ['SELL', '2000', false],
        ['SELL', '2050', false],
      ]);
      // One buy at 1850 was sent in all, and each fill is one order of the double booked once with its fee.
      expect(limitBuysAt('1850')).toBe(1);
      expectEachFillOnce(double, await fills());
    } finally {
      await supervisor.stop();
      await fake.close();
    }
  }, 120_000);
});

describe('a futures range grid whose reduce-only order the Binance double expired after a part', () => {
  it("rests the rest again, reduce-only, though below the minimum notional, and books the pair's profit once", async () => {
    const { fake, botId, supervisor, move, tickUntil, fills, resting, positionAmt } =
      await futuresGridOnDouble('neutral', 8);
    try {
      await tickUntil('2000', () => expect(resting()).toHaveLength(4));
      // Down to 1950: the buy there opens a long of 0.125 for 243.75 (fee 0.04875); the sell that closes it
      // rests at 2000 reduce-only, its cost the opening's 243.75 + 0.04875 = 243.79875.
      await tickUntil('1950', () => expect(resting()).toContainEqual([2, 'sell', 2000, true]));
      const seq = supervisor.rangeRunner(botId)!.currentState.orders.find((o) => o.level === 2)!.seq;
      // Up to 2001 with 0.12 traded: 0.12 of it fills (240 USDT, maker fee 0.048), then the double expires
      // it. Its rest, 0.005 for 10 USDT, is below the grid's minimum notional of 20 USDT; a reduce-only order
      // is exempt from it (-4164 "… unless you choose reduce only").
      await move('2001', '0.12');
      expect(positionAmt()).toBe('0.005');
      fake.book.expire('future', 'ETHUSDT', clientOrderIdOf(botId, seq));
      // Down to 1999: the rest goes out again at 2000 under the next client order id, reduce-only.
      await move('1999');
      expect(resting()).toContainEqual([2, 'sell', 2000, true]);
      expect(
        fake.book
          .openOrders('future', 'ETHUSDT')
          .filter((o) => o.price.eq(2000))
          .map((o) => [o.origQty.toFixed(), o.reduceOnly]),
      ).toEqual([['0.005', true]]);
      // Up to 2001 again: the rest fills (10 USDT, fee 0.002) and the position is flat. The pair's profit over
      // both parts: 240 + 10 − 0.048 − 0.002 − 243.79875 = 6.15125, booked once, on the order that closed it.
      await move('2001', '0.005');
      await move('2001');
      expect(positionAmt()).toBe('0');
      const rows = await fills();
      expect(
        rows.map((r) => [r.side, money(r.qty).toFixed(), r.pnl === null ? null : money(r.pnl).toFixed()]),
      ).toEqual([
        ['buy', '0.125', null],
        ['sell', '0.12', null],
        ['sell', '0.005', '6.15125'],
      ]);
      const [bot] = await handle.db.select().from(bots).where(eq(bots.id, botId));
      expect(money(bot!.profitBook).toFixed()).toBe('6.15125');
      expect(supervisor.rangeRunner(botId)!.currentState.stats.gridProfit).toBe(6.15125);
      // Answered by a buy of the whole 0.125 at 1950 that opens again.
      expect(resting()).toContainEqual([1, 'buy', 1950, false]);
      expect(
        fake.book
          .openOrders('future', 'ETHUSDT')
          .find((o) => o.price.eq(1950))
          ?.origQty.toFixed(),
      ).toBe('0.125');
    } finally {
      await supervisor.stop();
      await fake.close();
    }
  }, 60_000);
});
