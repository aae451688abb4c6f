/**
 * Post-only limit orders on the paper exchange, refused as Binance refuses them when they would trade at once:
 * - spot LIMIT_MAKER, [spot rest-api.md] "New order (TRADE)": "LIMIT_MAKER are LIMIT orders that will be
 *   rejected if they would immediately match and trade as a taker"; [spot errors.md] -2010 NEW_ORDER_REJECTED,
 *   "Order would immediately match and take.";
 * - USDⓈ-M futures timeInForce GTX "Good Till Crossing (Post Only)", [derivatives change-log, USDⓈ-M Futures]
 *   "When placing order with timeInForce FOK or GTX(Post-only), if the order can't meet execution criteria,
 *   order will get rejected directly and receive error response (...) The order can't be found in GET
 *   /fapi/v1/order": -5022 "Due to the order could not be executed as maker, the Post Only order will be
 *   rejected. The order will not be recorded in the order history".
 * Refused, nothing is reserved and the client order id stays free; one that would not cross rests as usual.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isExchangeError } from '../exchange-error';
import type { Exchange } from '../exchange-port';
import { ManualFeed } from '../testing/manual-feed';
import { MemoryPaperStore } from './memory-paper-store';
import { PaperExchange } from './paper-exchange';

let paper: PaperExchange;
let ex: Exchange;

beforeEach(async () => {
  const feed = new ManualFeed({ 'spot:BTCUSDT': '50000', 'future:BTCUSDT': '50000' });
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
});
afterEach(() => paper.stop());

const postOnly = (market: 'spot' | 'future', side: 'buy' | 'sell', id: string, price: string) =>
  ex.placeOrder({
    market,
    symbol: 'BTCUSDT',
    side,
    type: 'limit',
    clientOrderId: id,
    quantity: '0.01',
    price,
    postOnly: true,
  });

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (error: unknown) => (isExchangeError(error) ? error : undefined),
  );

const free = async (wallet: 'spot' | 'future', asset: string) =>
  (await ex.balances(wallet)).find((b) => b.asset === asset)?.free;

describe('post-only limit orders on the paper exchange', () => {
  it('refuses a spot buy at or above the last price with -2010, reserving nothing', async () => {
    // Last 50,000: a buy at 50,000 or 50,100 would trade at once.
    for (const [id, price] of [
      ['p1', '50000'],
      ['p2', '50100'],
    ] as const) {
      expect(await refusal(postOnly('spot', 'buy', id, price))).toMatchObject({
        kind: 'rejected',
        code: -2010,
        userMessage: 'Order would immediately match and take.',
        reason: 'would_take',
      });
    }
    expect(await free('spot', 'USDT')).toBe('10000');
    expect(await ex.fetchOrder('spot', 'BTCUSDT', 'p1')).toEqual({ found: false });
    // Below the price it rests, holding 0.01 × 49,900 = 499 USDT.
    expect((await postOnly('spot', 'buy', 'p3', '49900')).status).toBe('NEW');
    expect(await free('spot', 'USDT')).toBe('9501');
  });

  it('refuses a futures sell at or below the last price with -5022, and the order is not recorded', async () => {
    await ex.setLeverage('BTCUSDT', 2);
    expect(await refusal(postOnly('future', 'sell', 'f1', '49900'))).toMatchObject({
      kind: 'rejected',
      code: -5022,
      userMessage:
        'Due to the order could not be executed as maker, the Post Only order will be rejected. The order will not be recorded in the order history',
      reason: 'would_take',
    });
    expect(await ex.fetchOrder('future', 'BTCUSDT', 'f1')).toEqual({ found: false });
    expect(await free('future', 'USDT')).toBe('1000');
    expect((await postOnly('future', 'buy', 'f2', '49900')).status).toBe('NEW');
  });
});
