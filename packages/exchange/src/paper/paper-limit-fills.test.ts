/**
 * Resting limit orders on the paper exchange (docs/trading-rules.md §2.6): they fill when a tick reaches their
 * price, at exactly their price, as makers (spot 0.1 %, the buy's commission in the coin, §2.1; futures
 * 0.02 % of the notional in USDT), and the orders one tick crosses fill in the order the price reached them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Exchange, Order } from '../exchange-port';
import { ManualFeed } from '../testing/manual-feed';
import { MemoryPaperStore } from './memory-paper-store';
import { type PaperEvent, PaperExchange } from './paper-exchange';

let feed: ManualFeed;
let paper: PaperExchange;
let ex: Exchange;
let events: Order[];

beforeEach(async () => {
  feed = new ManualFeed({ 'spot:BTCUSDT': '50000', 'future:BTCUSDT': '50000' });
  paper = new PaperExchange({
    store: new MemoryPaperStore(),
    feed,
    startFunds: [
      { wallet: 'spot', asset: 'USDT', amount: '10000' },
      { wallet: 'future', asset: 'USDT', amount: '1000' },
    ],
  });
  await paper.start();
  ex = paper.forUser('u1');
  events = [];
  paper.on((e: PaperEvent) => {
    if (e.type === 'order') events.push(e.order);
  });
});
afterEach(() => paper.stop());

const free = async (wallet: 'spot' | 'future', asset: string) =>
  Number((await ex.balances(wallet)).find((b) => b.asset === asset)?.free ?? 0);

async function filledCount(n: number): Promise<void> {
  for (let k = 0; k < 200 && events.length < n; k++) await new Promise((r) => setTimeout(r, 2));
  expect(events.length).toBe(n);
}

const limit = (market: 'spot' | 'future', side: 'buy' | 'sell', id: string, price: string, qty = '0.01') =>
  ex.placeOrder({ market, symbol: 'BTCUSDT', side, type: 'limit', clientOrderId: id, quantity: qty, price });

describe('resting limit orders on the paper exchange', () => {
  it('a spot buy fills at its own price with the 0.1 % maker fee taken in the coin', async () => {
    expect((await limit('spot', 'buy', 'b1', '49000')).status).toBe('NEW');
    // The tick goes well past the limit: the order still fills at 49,000, not at 48,500.
    feed.setPrice('BTCUSDT', 'spot', '48500');
    await filledCount(1);
    const order = events[0]!;
    expect(order.averagePrice).toBe('49000');
    // 0.01 BTC × 0.1 % = 0.00001 BTC kept as the commission; 0.01 × 49,000 = 490 USDT paid.
    expect(order.fee).toBe('0.00001');
    expect(order.feeAsset).toBe('BTC');
    expect(await free('spot', 'BTC')).toBe(0.00999);
    expect(await free('spot', 'USDT')).toBe(9510);
  });

  it('a futures buy and its reduce-only sell fill at their prices with the 0.02 % maker fee', async () => {
    await ex.setLeverage('BTCUSDT', 5);
    await limit('future', 'buy', 'fb', '49000');
    // Held while it rests: margin 490 / 5 = 98 and the maker fee 490 × 0.02 % = 0.098.
    expect(await free('future', 'USDT')).toBe(901.902);
    feed.setPrice('BTCUSDT', 'future', '48000');
    await filledCount(1);
    expect(events[0]!.averagePrice).toBe('49000');
    expect(events[0]!.fee).toBe('0.098');
    expect(await free('future', 'USDT')).toBe(901.902);
    await ex.placeOrder({
      market: 'future',
      symbol: 'BTCUSDT',
      side: 'sell',
      type: 'limit',
      clientOrderId: 'fs',
      quantity: '0.01',
      price: '51000',
      reduceOnly: true,
    });
    feed.setPrice('BTCUSDT', 'future', '51500');
    await filledCount(2);
    // 510 × 0.02 % = 0.102; the margin 98 back and 0.01 × (51,000 − 49,000) = 20 realized.
    expect(events[1]!.fee).toBe('0.102');
    expect(await free('future', 'USDT')).toBe(1019.8);
  });

  it('a limit order that crosses the price when it arrives is a taker (futures 0.05 %)', async () => {
    await ex.setLeverage('BTCUSDT', 5);
    const order = await limit('future', 'buy', 'cross', '50100');
    // Filled at once at the last price, 50,000: 500 × 0.05 % = 0.25.
    expect(order.status).toBe('FILLED');
    expect(order.averagePrice).toBe('50000');
    expect(order.fee).toBe('0.25');
  });

  it('the orders one tick crosses fill in the order the price reaches them', async () => {
    // Placed out of price order, so only the path can order their fills.
    await limit('spot', 'buy', 'b47', '47000');
    await limit('spot', 'buy', 'b49', '49000');
    await limit('spot', 'buy', 'b48', '48000');
    feed.setPrice('BTCUSDT', 'spot', '46500');
    await filledCount(3);
    expect(events.map((o) => o.clientOrderId)).toEqual(['b49', 'b48', 'b47']);
    await limit('spot', 'sell', 's52', '52000', '0.005');
    await limit('spot', 'sell', 's51', '51000', '0.005');
    feed.setPrice('BTCUSDT', 'spot', '52500');
    await filledCount(5);
    expect(events.slice(3).map((o) => [o.clientOrderId, o.averagePrice])).toEqual([
      ['s51', '51000'],
      ['s52', '52000'],
    ]);
  });
});
