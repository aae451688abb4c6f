/**
 * A spot range grid's order filled in parts on the Binance double (docs/trading-rules.md §2.6 "Live (Binance)",
 * §3): the intent stays open until the whole order has filled, an order the exchange ends after a part is
 * placed again for its rest under a new client order id with the part kept booked once, and each part's fee
 * is its own trades' commission, in the asset the exchange took it in.
 *
 * Figures by hand: ETHUSDT spot (tick 0.01, step 0.0001), 1000 USDT on 1900–2100 in 4 levels of 50, started
 * at 2000. q = floor(1000 / (1900 + 1950 + 2000 × 2) / 0.0001) × 0.0001 = 0.1273; the start buys 2q = 0.2546
 * at 2000 (509.2 USDT); buys rest at 1900 and 1950 (0.1273 each), sells at 2050 and 2100.
 */
import { botFills, botIntents, bots, createTestDb, type DbHandle } from '@gridbot/db';
import type { RangeState } from '@gridbot/engine';
import { eventually, FakeBinanceServer, ManualFeed } from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { and, asc, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { clientOrderIdOf } from '../modules/bots';
import { binanceClientOf, supervisorOnBinance } from '../testing/binance-client';
import { insertUserWithKeys } from '../testing/bot-fixtures';
import { insertEthGrid } from '../testing/range-fixtures';
import type { BotSupervisor } from './bot-supervisor';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());

/** The runner is done with what it had to do. */
const settled = async (s: BotSupervisor, botId: string) => {
  await s.rangeRunner(botId)?.serial(async () => {});
  await s.rangeRunner(botId)?.serial(async () => {});
};

async function grid(key: number, bnb?: { price: string }) {
  const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
  const prices: Record<string, string> = { 'spot:ETHUSDT': '2000' };
  if (bnb) {
    fake.book.payFeesInBnb = true;
    fake.book.spot.set('BNB', { free: money(1), locked: money(0) });
    fake.setPrice('BNBUSDT', 'spot', bnb.price);
    prices['spot:BNBUSDT'] = bnb.price;
  }
  fake.setPrice('ETHUSDT', 'spot', '2000');
  const exchange = binanceClientOf(fake);
  const feed = new ManualFeed(prices);
  const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, key)));
  const { botId } = await insertEthGrid(handle.db, userId);
  // Every user's exchange is this one double here (no two users share one in production): the bots of the
  // tests before this one are stopped.
  await handle.db.update(bots).set({ status: 'Stopped' }).where(ne(bots.id, botId));
  const move = (price: string, volume?: string) => {
    fake.setPrice('ETHUSDT', 'spot', price, volume);
    feed.setPrice('ETHUSDT', 'spot', price);
  };
  const supervisor = supervisorOnBinance(handle.db, feed, exchange);
  await supervisor.start();
  move('2000');
  await settled(supervisor, botId);
  const state = () => supervisor.rangeRunner(botId)!.currentState as RangeState;
  const at = (level: number) => state().orders.find((o) => o.level === level);
  const fills = () =>
    handle.db.select().from(botFills).where(eq(botFills.botId, botId)).orderBy(asc(botFills.id));
  const intentOf = async (seq: number) =>
    (
      await handle.db
        .select()
        .from(botIntents)
        .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq)))
    )[0];
  const close = async () => {
    await supervisor.stop();
    await fake.close();
  };
  return { fake, feed, exchange, botId, supervisor, move, state, at, fills, intentOf, close };
}

describe('a range grid order filled in parts on the Binance double', () => {
  it('keeps its intent open until the whole order has filled', async () => {
    const g = await grid(11);
    try {
      const seq = g.at(1)!.seq;
      // 0.05 of the buy at 1950 trades: booked, and the order rests on with its intent still open.
      g.move('1950', '0.05');
      await settled(g.supervisor, g.botId);
      await eventually(async () =>
        expect((await g.fills()).map((f) => money(f.qty).toFixed())).toEqual(['0.2546', '0.05']),
      );
      expect(g.at(1)).toMatchObject({ seq, filled: { qty: 0.05, quote: 97.5 } });
      expect((await g.intentOf(seq))?.status).toBe('pending');
      // The rest (0.0773) fills below it: the order is whole, its intent filled.
      g.move('1940');
      await settled(g.supervisor, g.botId);
      await eventually(async () => expect((await g.intentOf(seq))?.status).toBe('filled'));
      expect(g.at(1)).toBeUndefined();
    } finally {
      await g.close();
    }
  }, 60_000);

  it('places the rest of an order the exchange expired after a part again, under a new id, booking each part once', async () => {
    const g = await grid(12);
    try {
      const first = g.at(1)!.seq;
      const firstId = clientOrderIdOf(g.botId, first);
      // Down to 1949 with 0.05 traded: 0.05 of the buy at 1950 fills (97.5 USDT, commission 0.00005 ETH), then
      // the exchange expires the order.
      g.move('1949', '0.05');
      await settled(g.supervisor, g.botId);
      await eventually(async () => expect(await g.fills()).toHaveLength(2));
      g.fake.book.expire('spot', 'ETHUSDT', firstId);
      // The next tick, up to 1951, looks the order up and finds it expired: the part stays booked once and the
      // rest, 0.1273 − 0.05 = 0.0773, rests again at 1950 under the grid's next client order id.
      g.move('1951');
      await settled(g.supervisor, g.botId);
      const again = g.at(1)!;
      expect(again.seq).toBeGreaterThan(first);
      expect(again).toMatchObject({
        side: 'buy',
        price: 1950,
        qty: 0.1273,
        filled: { qty: 0.05, quote: 97.5 },
      });
      const againId = clientOrderIdOf(g.botId, again.seq);
      const open = await g.exchange.openOrders('spot', 'ETHUSDT');
      expect(open.find((o) => o.clientOrderId === againId)).toMatchObject({
        price: '1950',
        quantity: '0.0773',
      });
      expect(open.some((o) => o.clientOrderId === firstId)).toBe(false);
      // The bot holds the start's 0.2543454 ETH and the part's 0.04995, nothing more.
      expect(g.state().base).toBeCloseTo(0.3042954, 10);
      expect((await g.intentOf(first))?.status).toBe('filled');

      // Below 1950 the rest fills: 0.0773 × 1950 = 150.735 USDT, commission 0.0000773 ETH (0.150735 USDT).
      // Each exchange order keeps its own row; together they are the level's 0.1273 for 248.235 USDT.
      g.move('1940');
      await settled(g.supervisor, g.botId);
      await eventually(async () => expect(await g.fills()).toHaveLength(3));
      const rows = (await g.fills()).map((f) => [
        f.clientOrderId,
        money(f.qty).toFixed(),
        money(f.quote).toFixed(),
        money(f.fee).toFixed(),
      ]);
      expect(rows.slice(1)).toEqual([
        [firstId, '0.05', '97.5', '0.0975'],
        [againId, '0.0773', '150.735', '0.150735'],
      ]);
      expect((await g.intentOf(again.seq))?.status).toBe('filled');
      // Answered by a sell at 2000 of the free coin: 0.2543454 + 0.04995 + 0.0772227 − 0.1273 − 0.1270 =
      // 0.1272181, floored: 0.1272.
      expect(g.at(2)).toMatchObject({ side: 'sell', price: 2000, qty: 0.1272 });
      // It fills: 254.4 USDT, fee 0.2544; the pair's profit counts both parts of the buy:
      // 254.4 − 0.2544 − 248.235 = 5.9106.
      g.move('2000');
      await settled(g.supervisor, g.botId);
      await eventually(async () => expect(await g.fills()).toHaveLength(4));
      const sell = (await g.fills())[3]!;
      expect(money(sell.pnl!).toFixed()).toBe('5.9106');
      // Each execution on the double is booked in exactly one row.
      for (const row of await g.fills())
        expect(g.fake.book.executedWithId(row.clientOrderId)).toHaveLength(1);
    } finally {
      await g.close();
    }
  }, 60_000);

  it('counts an order the exchange expired with a rest below the minimum notional as complete with what filled', async () => {
    const g = await grid(14);
    try {
      const first = g.at(1)!.seq;
      // Down to 1949 with 0.125 traded: 0.125 of the buy at 1950 fills (243.75 USDT, commission 0.000125 ETH),
      // then the exchange expires the order. Its rest, 0.1273 − 0.125 = 0.0023 for 4.485 USDT, is below the
      // symbol's minimum notional of 5 USDT: Binance would refuse it (NOTIONAL).
      g.move('1949', '0.125');
      await settled(g.supervisor, g.botId);
      await eventually(async () => expect(await g.fills()).toHaveLength(2));
      g.fake.book.expire('spot', 'ETHUSDT', clientOrderIdOf(g.botId, first));
      // The next tick finds it expired: the buy counts as complete with its 0.125, its level stays empty, and
      // it is answered by a sell at 2000 for what filled as the free coin allows: the start left 0.0000454
      // free, the part brought 0.124875, together 0.1249204, floored to the step: 0.1249.
      g.move('1951');
      await settled(g.supervisor, g.botId);
      expect(g.at(1)).toBeUndefined();
      expect(g.at(2)).toMatchObject({ side: 'sell', price: 2000, qty: 0.1249, cost: 243.75 });
      const open = await g.exchange.openOrders('spot', 'ETHUSDT');
      expect(open.map((o) => [o.side, o.price, o.quantity]).sort()).toEqual([
        ['buy', '1900', '0.1273'],
        ['sell', '2000', '0.1249'],
        ['sell', '2050', '0.1273'],
        ['sell', '2100', '0.127'],
      ]);
      expect((await g.intentOf(first))?.status).toBe('filled');
      const [row] = await handle.db.select().from(bots).where(eq(bots.id, g.botId));
      expect(row?.status).not.toBe('Pause');

      // The grid trades on: the sell fills, 0.1249 × 2000 = 249.8 USDT, fee 0.2498; the pair's profit is
      // 249.8 − 0.2498 − 243.75 = 5.8002, and a buy of q = 0.1273 goes back on 1950: free USDT is
      // 1000 − 509.2 − 243.75 + 249.8 − 0.2498 − 241.87 (the buy at 1900) = 254.7302 ≥ 248.235.
      g.move('2000');
      await settled(g.supervisor, g.botId);
      await eventually(async () => expect(await g.fills()).toHaveLength(3));
      expect(money((await g.fills())[2]!.pnl!).toFixed()).toBe('5.8002');
      expect(g.at(1)).toMatchObject({ side: 'buy', price: 1950, qty: 0.1273 });
    } finally {
      await g.close();
    }
  }, 60_000);

  it("books a closing sell's part of the pair's profit on its row once, when the exchange expired it with a rest below the minimum notional", async () => {
    const g = await grid(15);
    try {
      const sell = g.at(3)!;
      // The start's sells each carry half the market buy: 509.2 / 2 = 254.6 USDT for 0.1273.
      expect(sell).toMatchObject({ side: 'sell', price: 2050, qty: 0.1273, cost: 254.6 });
      // Up to 2051 with 0.125 traded: 0.125 of the sell at 2050 fills (256.25 USDT, commission 0.25625 USDT),
      // then the exchange expires the order. Its rest, 0.0023 for 4.715 USDT, is below the minimum of 5 USDT.
      g.move('2051', '0.125');
      await settled(g.supervisor, g.botId);
      await eventually(async () => expect(await g.fills()).toHaveLength(2));
      expect((await g.fills())[1]!.pnl).toBeNull();
      g.fake.book.expire('spot', 'ETHUSDT', clientOrderIdOf(g.botId, sell.seq));
      // The next tick finds it expired: the sell counts as complete with its 0.125, whose coin cost
      // 254.6 × 0.125 / 0.1273 = 250 USDT. The pair's profit: 256.25 − 0.25625 − 250 = 5.99375, on the sell's
      // row, in the bot's Profit Book and its grid profit (the start's market buy books none).
      g.move('2049');
      await settled(g.supervisor, g.botId);
      expect(g.at(3)).toBeUndefined();
      expect((await g.intentOf(sell.seq))?.status).toBe('filled');
      const rows = await g.fills();
      expect(rows).toHaveLength(2);
      expect(money(rows[1]!.qty).toFixed()).toBe('0.125');
      expect(money(rows[1]!.pnl ?? 0).toFixed()).toBe('5.99375');
      const profitBook = async () =>
        money((await handle.db.select().from(bots).where(eq(bots.id, g.botId)))[0]!.profitBook).toFixed();
      expect(await profitBook()).toBe('5.99375');
      expect(g.state().stats.gridProfit).toBe(5.99375);
      // Answered by a buy at 2000 for what filled: 0.125 × 2000 = 250 USDT, from the free 1000 − 509.2 −
      // 241.87 − 248.235 + 255.99375 = 256.68875.
      expect(g.at(2)).toMatchObject({ side: 'buy', price: 2000, qty: 0.125 });

      // A restart replays the expired order against the book: its profit is not booked a second time.
      await g.supervisor.stop();
      const again = supervisorOnBinance(handle.db, g.feed, g.exchange);
      await again.start();
      await settled(again, g.botId);
      expect(money((await g.fills())[1]!.pnl ?? 0).toFixed()).toBe('5.99375');
      expect(await profitBook()).toBe('5.99375');
      await again.stop();
    } finally {
      await g.close();
    }
  }, 60_000);

  it("books each part's BNB fee from its own trades, valued at BNB's price when it is booked", async () => {
    const g = await grid(13, { price: '600' });
    try {
      const seq = g.at(1)!.seq;
      // Part one: 0.05 at 1950 = 97.5 USDT; fee 97.5 × 0.1 % × 0.75 = 0.073125 USDT = 0.000121875 BNB at 600,
      // rounded up to 8 decimals: 0.00012188 BNB.
      g.move('1950', '0.05');
      await settled(g.supervisor, g.botId);
      await eventually(async () => expect(await g.fills()).toHaveLength(2));
      // BNB falls to 500. Part two: 0.03 at 1950 = 58.5 USDT; fee 0.043875 USDT = 0.00008775 BNB. (Split by
      // quantity, the order's 0.00020963 BNB would give it 0.00020963 × 0.03 / 0.08 = 0.00007861 BNB instead.)
      g.fake.setPrice('BNBUSDT', 'spot', '500');
      g.feed.setPrice('BNBUSDT', 'spot', '500');
      g.move('1950', '0.03');
      await settled(g.supervisor, g.botId);
      await eventually(async () => expect(money((await g.fills())[1]!.qty).toFixed()).toBe('0.08'));
      const row = (await g.fills())[1]!;
      expect(row.feeAsset).toBe('BNB');
      expect(money(row.feePaid!).toFixed()).toBe('0.00020963');
      // In USDT: 0.00012188 × 600 + 0.00008775 × 500 = 0.073128 + 0.043875 = 0.117003.
      expect(money(row.fee).toFixed()).toBe('0.117003');
      // The start buy's fee (509.2 × 0.075 % = 0.3819 USDT, 0.0006365 BNB) and the two parts': 0.498903 USDT.
      expect(g.state().stats.fees).toBeCloseTo(0.498903, 9);
      expect(g.at(1)).toMatchObject({ seq, filled: { qty: 0.08, quote: 156 } });
    } finally {
      await g.close();
    }
  }, 60_000);
});
