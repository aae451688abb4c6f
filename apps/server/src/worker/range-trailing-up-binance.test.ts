/**
 * A spot range grid trailing up on the Binance double (docs/trading-rules.md §2.6 "Trailing up": at one spacing
 * above the top the order on the lowest level is cancelled, q is bought at market as far as the free USDT
 * reaches, a sell is placed at the new top level and the grid moves up one level). The sell at the new top rests
 * there until the path goes on up through it (§2.6 fill model, a maker fill): the runtime sends it once the price
 * has left its level, so the step never sells at once what it just bought.
 *
 * Figures by hand: ETHUSDT spot (tick 0.01, step 0.0001, commission 0.1 %, a buy's in ETH), 1000 USDT on
 * 1900–2100 in 4 levels of 50, trailing up, started at 2000. q = 0.1273; the start buys 0.2546 at 2000 (509.2
 * USDT, commission 0.0002546 ETH: 0.2543454 held); buys at 1900 and 1950 (0.1273 each, 490.105 USDT locked),
 * sells at 2050 (0.1273) and 2100 (0.1270454 floored: 0.127), each costing 509.2 / 2 = 254.6. Free USDT 0.695.
 */
import { createTestDb, type DbHandle } from '@gridbot/db';
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

describe('a spot range grid trailing up on the Binance double', () => {
  it('moves up one level above the top, holding the coin it bought until the price goes on up through its sell', async () => {
    const params = rangeStrategySchema.parse({
      type: 'range',
      lower: 1900,
      upper: 2100,
      grids: 4,
      trailingUp: true,
    });
    // Every user's exchange is this one double here: no other bot of the test database runs beside it.
    const grid = await ethGridOnBinance(handle.db, {
      market: 'spot',
      params,
      investment: 1000,
      keySeed: 21,
      soleBot: true,
    });
    const { fake, exchange, feed, botId } = grid;
    const supervisor = supervisorOnBinance(handle.db, feed, exchange);
    const move = async (price: string) => {
      grid.move(price);
      await settledRange(supervisor, botId);
      await settledRange(supervisor, botId);
    };
    const open = () =>
      fake.book
        .openOrders('spot', 'ETHUSDT')
        .map((o) => [o.side, o.price.toFixed(), o.origQty.toFixed()])
        .sort();
    /** The ETH the account holds on the double, free and locked. */
    const eth = () => {
      const b = fake.book.balance('ETH');
      return b.free.plus(b.locked).toFixed();
    };
    const fills = async () =>
      (await grid.fillRows()).map((f) => [
        f.side,
        money(f.price).toFixed(),
        money(f.qty).toFixed(),
        f.pnl === null ? null : money(f.pnl).toFixed(),
      ]);
    const marketBuys = () => fake.orderPosts('spot').filter((r) => r.params.type === 'MARKET');
    await supervisor.start();
    try {
      await move('2000');
      expect(open()).toEqual([
        ['BUY', '1900', '0.1273'],
        ['BUY', '1950', '0.1273'],
        ['SELL', '2050', '0.1273'],
        ['SELL', '2100', '0.127'],
      ]);
      expect(eth()).toBe('0.2543454');

      // Up to 2050: the sell there fills (260.965 USDT, fee 0.260965): profit 260.704035 − 254.6 = 6.104035;
      // a buy of 0.1273 answers it at 2000 (254.6 of the free 0.695 + 260.704035 = 261.399035).
      // Up to 2100: the sell there fills (0.127 × 2100 = 266.7, fee 0.2667): profit 266.4333 − 254.6 = 11.8333;
      // a buy of 0.1273 answers it at 2050 (260.965 of the free 6.799035 + 266.4333 = 273.232335). Free USDT
      // 12.267335; the coin left is the start's commission remainder, 0.2543454 − 0.1273 − 0.127 = 0.0000454.
      await move('2050');
      await move('2100');
      expect(open()).toEqual([
        ['BUY', '1900', '0.1273'],
        ['BUY', '1950', '0.1273'],
        ['BUY', '2000', '0.1273'],
        ['BUY', '2050', '0.1273'],
      ]);
      expect(eth()).toBe('0.0000454');

      // Up to 2150, one spacing above the top: the buy at 1900 is cancelled (241.87 free again: 254.137335), and
      // the coin is bought at market as far as that reaches at 2150.01: floor(254.137335 / 2150.01) = 0.1182,
      // 254.13 USDT at 2150, commission 0.0001182 ETH. The grid is 1950–2150; the sell at the new top belongs
      // on 2150, where the price stands: it waits, and the coin stays held.
      await move('2150');
      expect(marketBuys().map((r) => r.params.quantity)).toEqual(['0.2546', '0.1182']);
      expect(eth()).toBe('0.1181272');
      expect(open()).toEqual([
        ['BUY', '1950', '0.1273'],
        ['BUY', '2000', '0.1273'],
        ['BUY', '2050', '0.1273'],
      ]);
      await move('2150');
      expect(eth()).toBe('0.1181272');
      expect(open()).toHaveLength(3);

      // Back down to 2140: the sell goes out at 2150 for the free coin floored to the step, 0.1181, and rests.
      await move('2140');
      expect(open()).toEqual([
        ['BUY', '1950', '0.1273'],
        ['BUY', '2000', '0.1273'],
        ['BUY', '2050', '0.1273'],
        ['SELL', '2150', '0.1181'],
      ]);
      expect(eth()).toBe('0.1181272');

      // Up to 2160: it fills at 2150 as a maker: 0.1181 × 2150 = 253.915, fee 0.253915; against the 254.13 its
      // coin cost the pair loses 253.661085 − 254.13 = −0.468915. Its answer, a buy of 0.1273 at 2100, would
      // need 267.33 USDT and the grid has 254.137335 − 254.13 + 253.661085 = 253.66842 free: it goes out for what
      // that pays, floor(253.66842 / 2100 / 0.0001) × 0.0001 = 0.1207 (253.47 USDT), so no level stays empty.
      await move('2160');
      await move('2160');
      expect((await fills()).slice(1)).toEqual([
        ['sell', '2050', '0.1273', '6.104035'],
        ['sell', '2100', '0.127', '11.8333'],
        ['buy', '2150', '0.1182', null],
        ['sell', '2150', '0.1181', '-0.468915'],
      ]);
      expect(eth()).toBe('0.0000272');
      expect(open()).toEqual([
        ['BUY', '1950', '0.1273'],
        ['BUY', '2000', '0.1273'],
        ['BUY', '2050', '0.1273'],
        ['BUY', '2100', '0.1207'],
      ]);
      const state = supervisor.rangeRunner(botId)!.currentState;
      expect(state.orders.map((o) => o.level)).toEqual([1, 2, 3, 4]);
      expect(state.queue).toEqual([]);
      expect(state.quote - state.lockedQuote).toBeCloseTo(0.19842, 8);
    } finally {
      await supervisor.stop();
      await fake.close();
    }
  }, 60_000);
});
