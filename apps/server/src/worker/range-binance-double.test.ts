/**
 * A spot range grid on the Binance double (docs/trading-rules.md §2.6 "Live (Binance)", §3): its orders go out
 * as LIMIT GTC under the runtime's client order ids, a fill on the double is booked once with the fee of its
 * trades, a partial fill is booked as it comes while the order stays on the book, and after a restart the
 * runtime books what filled while it was down and cancels an order of the bot the grid no longer holds.
 *
 * Figures by hand: ETHUSDT spot (tick 0.01, step 0.0001), 1000 USDT on 1900–2100 in 4 levels of 50, started
 * at 2000. q = floor(1000 / (1900 + 1950 + 2000 × 2) / 0.0001) × 0.0001 = 0.1273. The start buys 2q = 0.2546
 * at 2000 (509.2 USDT; commission 0.0002546 ETH, 0.2543454 held); sells at 2050 (0.1273) and 2100 (the rest,
 * 0.1270454, floored: 0.1270); buys at 1900 and 1950 (0.1273 each).
 */
import { botIntents, createTestDb, type DbHandle } from '@gridbot/db';
import { eventually } from '@gridbot/exchange/testing';
import { money, rangeStrategySchema } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOrderIdOf } from '../modules/bots';
import { supervisorOnBinance } from '../testing/binance-client';
import { settledRange } from '../testing/range-fixtures';
import { ethGridOnBinance } from '../testing/range-on-binance';
import type { BotSupervisor } from './bot-supervisor';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());

describe('a spot range grid on the Binance double', () => {
  it('rests LIMIT GTC orders, books whole and partial fills once with their fees, and reconciles after a restart', async () => {
    const params = rangeStrategySchema.parse({ type: 'range', lower: 1900, upper: 2100, grids: 4 });
    const grid = await ethGridOnBinance(handle.db, { market: 'spot', params, investment: 1000, keySeed: 4 });
    const { fake, exchange, feed, botId, move } = grid;
    const fills = grid.fillRows;
    const buy1900 = async () => (await brief()).find(([side, , price]) => side === 'buy' && price === '1900');
    const brief = async () =>
      (await fills()).map((f) => [f.side, f.grid, money(f.price).toFixed(), money(f.qty).toFixed()]);
    const idOf = async (level: number, runner: BotSupervisor) => {
      const o = runner.rangeRunner(botId)!.currentState.orders.find((r) => r.level === level)!;
      return clientOrderIdOf(botId, o.seq);
    };

    let supervisor = supervisorOnBinance(handle.db, feed, exchange);
    await supervisor.start();
    try {
      move('2000');
      await settledRange(supervisor, botId);
      await settledRange(supervisor, botId);
      const state = supervisor.rangeRunner(botId)!.currentState;
      expect(state.orders.map((o) => [o.level, o.side, o.price, o.qty])).toEqual([
        [0, 'buy', 1900, 0.1273],
        [1, 'buy', 1950, 0.1273],
        [3, 'sell', 2050, 0.1273],
        [4, 'sell', 2100, 0.127],
      ]);
      // Each went out as a LIMIT GTC order under its intent's client order id, and rests on the double.
      const intents = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
      const limits = fake.orderPosts().filter((r) => r.params.type === 'LIMIT');
      expect(limits).toHaveLength(4);
      for (const post of limits) {
        expect(post.params.timeInForce).toBe('GTC');
        expect(intents.some((i) => i.clientOrderId === post.params.newClientOrderId)).toBe(true);
      }
      expect((await exchange.openOrders('spot', 'ETHUSDT')).map((o) => o.price).sort()).toEqual([
        '1900',
        '1950',
        '2050',
        '2100',
      ]);

      // Down to 1950: the buy there fills whole at 1950 (commission 0.1273 × 0.1 % = 0.0001273 ETH, worth
      // 0.248235 USDT at 1950), booked once; a sell answers it at 2000.
      move('1950');
      await settledRange(supervisor, botId);
      await settledRange(supervisor, botId);
      expect(await brief()).toEqual([
        ['buy', 0, '2000', '0.2546'],
        ['buy', 1, '1950', '0.1273'],
      ]);
      const buy1950 = (await fills())[1]!;
      expect(buy1950).toMatchObject({ feeAsset: 'ETH' });
      expect(money(buy1950.feePaid!).toFixed()).toBe('0.0001273');
      expect(money(buy1950.fee).toFixed()).toBe('0.248235');
      // The sell at 2000: q, or the free coin when less: 0.2543454 + 0.1271727 − 0.1273 − 0.1270 = 0.1272181,
      // floored: 0.1272.
      expect(supervisor.rangeRunner(botId)!.currentState.orders.find((o) => o.level === 2)).toMatchObject({
        side: 'sell',
        price: 2000,
        qty: 0.1272,
      });

      // Down to 1900 with 0.05 ETH traded there: the buy fills 0.05 of 0.1273 (95 USDT, 0.00005 ETH), booked
      // at once; the order stays on the book, and on the double.
      move('1900', '0.05');
      await settledRange(supervisor, botId);
      const id1900 = await idOf(0, supervisor);
      expect(supervisor.rangeRunner(botId)!.currentState.orders.find((o) => o.level === 0)).toMatchObject({
        qty: 0.1273,
        filled: { qty: 0.05, quote: 95, fee: 0.00005 },
      });
      expect((await exchange.openOrders('spot', 'ETHUSDT')).map((o) => o.clientOrderId)).toContain(id1900);
      await eventually(async () => expect(await buy1900()).toEqual(['buy', 0, '1900', '0.05']));
      // The price stays at 1900 and the next 0.03 trades: booked on the next tick, still one row for the order.
      move('1900', '0.03');
      await settledRange(supervisor, botId);
      await eventually(async () => expect(await buy1900()).toEqual(['buy', 0, '1900', '0.08']));
      // Below it the rest fills (0.0473): the order is whole, its row 0.1273 for 241.87 USDT with
      // 0.0001273 ETH = 0.24187 USDT of fees; a sell answers it at 1950.
      move('1899');
      await settledRange(supervisor, botId);
      await settledRange(supervisor, botId);
      await eventually(async () => expect(await buy1900()).toEqual(['buy', 0, '1900', '0.1273']));
      const rows = await fills();
      expect(rows).toHaveLength(3);
      expect(rows[2]).toMatchObject({ side: 'buy', grid: 0 });
      expect(money(rows[2]!.qty).toFixed()).toBe('0.1273');
      expect(money(rows[2]!.quote).toFixed()).toBe('241.87');
      expect(money(rows[2]!.feePaid!).toFixed()).toBe('0.0001273');
      expect(money(rows[2]!.fee).toFixed()).toBe('0.24187');
      const levels = supervisor.rangeRunner(botId)!.currentState.orders.map((o) => o.level);
      expect(levels).toEqual([1, 2, 3, 4]);
      // Each fill is the double's order, once.
      for (const row of rows) expect(fake.book.executedWithId(row.clientOrderId)).toHaveLength(1);
    } finally {
      await supervisor.stop();
    }

    // While no runtime runs: the sell at 1950 fills whole, 0.03 of the sell at 2000 fills, and an order of this
    // bot that its grid does not hold (one a crash left behind) rests at 1800.
    const stray = clientOrderIdOf(botId, 9999);
    await exchange.placeOrder({
      market: 'spot',
      symbol: 'ETHUSDT',
      side: 'buy',
      type: 'limit',
      clientOrderId: stray,
      quantity: '0.01',
      price: '1800',
    });
    fake.setPrice('ETHUSDT', 'spot', '1950');
    fake.setPrice('ETHUSDT', 'spot', '2000', '0.03');

    for (let restart = 0; restart < 2; restart++) {
      supervisor = supervisorOnBinance(handle.db, feed, exchange);
      await supervisor.start();
      try {
        await settledRange(supervisor, botId);
        feed.setPrice('ETHUSDT', 'spot', '2000');
        await settledRange(supervisor, botId);
        await settledRange(supervisor, botId);
        await eventually(async () => expect(await fills()).toHaveLength(5));
        const rows = await fills();
        // The sell at 1950 was placed with the free coin, less than q: 0.2543454 + 2 × 0.1271727 held, less
        // 0.1273 + 0.1270 + 0.1272 in the sells at 2050, 2100 and 2000: 0.1271908, floored: 0.1271. Booked once
        // with its pair's profit: 0.1271 × 1950 = 247.845, fee 0.247845 USDT; cost the buy at 1900, 241.87:
        // 247.845 − 0.247845 − 241.87 = 5.727155. The sell at 2000 booked its 0.03 (60 USDT), no profit yet.
        expect(rows.map((f) => [f.side, f.grid, money(f.price).toFixed(), money(f.qty).toFixed()])).toEqual([
          ['buy', 0, '2000', '0.2546'],
          ['buy', 1, '1950', '0.1273'],
          ['buy', 0, '1900', '0.1273'],
          ['sell', 1, '1950', '0.1271'],
          ['sell', 2, '2000', '0.03'],
        ]);
        expect(money(rows[3]!.pnl!).toFixed()).toBe('5.727155');
        expect(rows[4]!.pnl).toBeNull();
        const state = supervisor.rangeRunner(botId)!.currentState;
        // The sell at 1950 answered by a buy at 1900; the sell at 2000 rests with its part booked.
        expect(state.orders.map((o) => [o.level, o.side])).toEqual([
          [0, 'buy'],
          [2, 'sell'],
          [3, 'sell'],
          [4, 'sell'],
        ]);
        expect(state.orders.find((o) => o.level === 2)?.filled).toMatchObject({ qty: 0.03, quote: 60 });
        // The double holds open exactly the grid's orders: the stray one is cancelled.
        const open = await exchange.openOrders('spot', 'ETHUSDT');
        expect(open.map((o) => o.clientOrderId).sort()).toEqual(
          state.orders.map((o) => clientOrderIdOf(botId, o.seq)).sort(),
        );
        expect(fake.book.orders.find((o) => o.clientOrderId === stray)?.status).toBe('CANCELED');
      } finally {
        await supervisor.stop();
      }
    }
    await fake.close();
  }, 120_000);
});
