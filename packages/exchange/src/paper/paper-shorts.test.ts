/**
 * Shorts on the paper exchange: one one-way position per (user, symbol), as Binance USDT-M keeps it in one-way
 * mode (`positionSide` BOTH, "New Order"): a sell with no long opens a short, a buy against a short reduces it
 * and, when larger and not reduce-only, flips it into a long; a reduce-only order never opens, grows or flips a
 * position, else -2022 "ReduceOnly Order is rejected." (Binance USDT-M error codes). Figures worked by hand with
 * BTCUSDT's brackets (notional < 50,000: m 0.4 %, cum 0; up to 600,000: m 0.5 %, cum 50), taker fee 0.05 %,
 * maker fee 0.02 % (docs/trading-rules.md §2.1, §2.2, §2.6).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExchangeError } from '../exchange-error';
import type { Exchange, Order } from '../exchange-port';
import { ManualFeed } from '../testing/manual-feed';
import { MemoryPaperStore } from './memory-paper-store';
import { type PaperEvent, PaperExchange } from './paper-exchange';

let feed: ManualFeed;
let paper: PaperExchange;
let ex: Exchange;
let events: PaperEvent[];

beforeEach(async () => {
  feed = new ManualFeed({ 'future:BTCUSDT': '60000' });
  paper = new PaperExchange({
    store: new MemoryPaperStore(),
    feed,
    startFunds: [{ wallet: 'future', asset: 'USDT', amount: '100000' }],
  });
  await paper.start();
  ex = paper.forUser('u1');
  await ex.setLeverage('BTCUSDT', 10);
  events = [];
  paper.on((e) => events.push(e));
});
afterEach(() => paper.stop());

let seq = 0;
const market = (side: 'buy' | 'sell', quantity: string, reduceOnly = false): Promise<Order> => {
  seq += 1;
  return ex.placeOrder({
    market: 'future',
    symbol: 'BTCUSDT',
    side,
    type: 'market',
    clientOrderId: `m-${seq}`,
    quantity,
    ...(reduceOnly ? { reduceOnly: true } : {}),
  });
};
const limit = (side: 'buy' | 'sell', quantity: string, price: string, reduceOnly = false): Promise<Order> => {
  seq += 1;
  return ex.placeOrder({
    market: 'future',
    symbol: 'BTCUSDT',
    side,
    type: 'limit',
    clientOrderId: `l-${seq}`,
    quantity,
    price,
    ...(reduceOnly ? { reduceOnly: true } : {}),
  });
};
const usdt = async () => (await ex.balances('future')).find((b) => b.asset === 'USDT')!;
const rejectedReduceOnly = async (order: Promise<Order>) => {
  const error = await order.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ExchangeError);
  expect((error as ExchangeError).code).toBe(-2022);
};
async function orderEvents(n: number): Promise<Order[]> {
  const of = () => events.flatMap((e) => (e.type === 'order' ? [e.order] : []));
  for (let k = 0; k < 200 && of().length < n; k++) await new Promise((r) => setTimeout(r, 2));
  expect(of().length).toBe(n);
  return of();
}

describe('a short on the paper exchange', () => {
  it('opens, grows, is reduced and closed with margin, entry and PnL as Binance books them', async () => {
    // Sell 1 at 60,000 at 10×: margin 6,000 locked, fee 60,000 × 0.05 % = 30.
    await market('sell', '1');
    expect(await usdt()).toMatchObject({ free: '93970', locked: '6000' });
    expect(await ex.position('BTCUSDT')).toMatchObject({
      side: 'short',
      quantity: '1',
      entryPrice: '60000',
      isolatedMargin: '6000',
      // (60,000 + 6,000 + 50) / (1 × 1.005)
      liquidationPrice: '65721.39303482',
    });
    // Sell 1 more at 62,000: margin 6,200, fee 31; entry (60,000 + 62,000) / 2 = 61,000.
    feed.setPrice('BTCUSDT', 'future', '62000');
    await market('sell', '1');
    expect(await ex.positions()).toMatchObject([
      {
        side: 'short',
        quantity: '2',
        entryPrice: '61000',
        isolatedMargin: '12200',
        // (122,000 + 12,200 + 50) / (2 × 1.005)
        liquidationPrice: '66791.04477611',
        // 122,000 − 2 × 62,000
        unrealizedPnl: '-2000',
      },
    ]);
    // Buy back 0.5 at 59,000 reduce-only: 1/4 of the margin (3,050) back, PnL 0.5 × (61,000 − 59,000) = 1,000,
    // fee 29,500 × 0.05 % = 14.75.
    feed.setPrice('BTCUSDT', 'future', '59000');
    await market('buy', '0.5', true);
    expect(await usdt()).toMatchObject({ free: '91774.25', locked: '9150' });
    expect(await ex.position('BTCUSDT')).toMatchObject({
      side: 'short',
      quantity: '1.5',
      entryPrice: '61000',
    });
    // Close 1.5 at 63,000: PnL 1.5 × (61,000 − 63,000) = −3,000, fee 94,500 × 0.05 % = 47.25, margin 9,150 back.
    feed.setPrice('BTCUSDT', 'future', '63000');
    await market('buy', '1.5', true);
    expect(await ex.position('BTCUSDT')).toBeUndefined();
    // 100,000 − 30 − 31 + 1,000 − 14.75 − 3,000 − 47.25
    expect(await usdt()).toMatchObject({ free: '97877', locked: '0' });
  });

  it('refuses a reduce-only order that would open, grow or flip the position, and changes nothing', async () => {
    await rejectedReduceOnly(market('sell', '1', true));
    await rejectedReduceOnly(market('buy', '1', true));
    await market('sell', '1');
    // Grows the short: refused.
    await rejectedReduceOnly(market('sell', '0.1', true));
    // Larger than the short: it would flip it into a long, refused.
    await rejectedReduceOnly(market('buy', '1.001', true));
    expect(await ex.position('BTCUSDT')).toMatchObject({ side: 'short', quantity: '1' });
    expect(await usdt()).toMatchObject({ free: '93970', locked: '6000' });
  });

  it('a buy larger than the short, not reduce-only, closes it and opens a long with the rest', async () => {
    await market('sell', '1');
    feed.setPrice('BTCUSDT', 'future', '59000');
    // Buy 3 at 59,000: 1 closes the short (PnL +1,000, margin 6,000 back), 2 open a long (margin 11,800);
    // fee 177,000 × 0.05 % = 88.5.
    await market('buy', '3');
    expect(await ex.position('BTCUSDT')).toMatchObject({
      side: 'long',
      quantity: '2',
      entryPrice: '59000',
      isolatedMargin: '11800',
      // (118,000 − 11,800 − 50) / (2 × 0.995) = 53,341.708542713…, rounded up
      liquidationPrice: '53341.70854272',
    });
    // 100,000 − 30 − 6,000 + 6,000 + 1,000 − 11,800 − 88.5
    expect(await usdt()).toMatchObject({ free: '89081.5', locked: '11800' });
  });

  it('a resting opening sell holds margin and maker fee and opens the short when the price reaches it', async () => {
    // 1 × 61,000 at 10×: 6,100 margin + 61,000 × 0.02 % = 12.2 held.
    expect((await limit('sell', '1', '61000')).status).toBe('NEW');
    expect(await usdt()).toMatchObject({ free: '93887.8', locked: '6112.2' });
    feed.setPrice('BTCUSDT', 'future', '61500');
    await orderEvents(1);
    expect(await ex.position('BTCUSDT')).toMatchObject({ side: 'short', quantity: '1', entryPrice: '61000' });
    expect(await usdt()).toMatchObject({ free: '93887.8', locked: '6100' });
    // Its reduce-only buy one level down holds nothing; filled at 60,000: PnL +1,000, fee 12.
    await limit('buy', '1', '60000', true);
    expect(await usdt()).toMatchObject({ free: '93887.8', locked: '6100' });
    feed.setPrice('BTCUSDT', 'future', '59500');
    const [, closed] = await orderEvents(2);
    expect(closed).toMatchObject({ status: 'FILLED', averagePrice: '60000', fee: '12' });
    expect(await ex.position('BTCUSDT')).toBeUndefined();
    expect(await usdt()).toMatchObject({ free: '100975.8', locked: '0' });
  });

  it('a resting reduce-only buy whose short is gone expires instead of opening a long', async () => {
    await market('sell', '1');
    await limit('buy', '1', '59000', true);
    await market('buy', '1', true);
    feed.setPrice('BTCUSDT', 'future', '58000');
    const [expired] = await orderEvents(1);
    expect(expired).toMatchObject({ status: 'EXPIRED', filledQuantity: '0' });
    expect(await ex.position('BTCUSDT')).toBeUndefined();
  });

  it('is liquidated when the mark price reaches its liquidation price from below, losing its margin', async () => {
    await market('sell', '1');
    feed.setPrice('BTCUSDT', 'future', '65721.3');
    expect(await ex.position('BTCUSDT')).toMatchObject({ side: 'short' });
    feed.setPrice('BTCUSDT', 'future', '65721.4');
    expect(await ex.position('BTCUSDT')).toBeUndefined();
    expect(events).toContainEqual({
      type: 'liquidation',
      userId: 'u1',
      symbol: 'BTCUSDT',
      side: 'short',
      quantity: '1',
      price: '65721.4',
      marginLost: '6000',
    });
    expect(await usdt()).toMatchObject({ free: '93970', locked: '0' });
  });

  it('a falling price does not liquidate a short', async () => {
    await market('sell', '1');
    feed.setPrice('BTCUSDT', 'future', '30000');
    expect(await ex.position('BTCUSDT')).toMatchObject({
      side: 'short',
      quantity: '1',
      unrealizedPnl: '30000',
    });
  });
});
