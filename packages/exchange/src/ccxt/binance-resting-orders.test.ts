/**
 * Resting limit orders through the Binance adapter on the loopback double: LIMIT GTC and LIMIT_MAKER, fills at
 * the limit price as a maker, partial fills, cancels by client order id, and the MAX_NUM_ORDERS and
 * PERCENT_PRICE_BY_SIDE filters (binance-spot-api-docs rest-api.md, filters.md, errors.md). Figures by hand.
 */
import { money } from '@gridbot/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { rejection } from '../testing/exchange-contract';
import { FakeBinanceServer } from '../testing/fake-binance-server';
import { virtualBudget } from '../testing/virtual-budget';
import { BinanceExchange } from './binance-exchange';

let fake: FakeBinanceServer;
afterEach(async () => {
  await fake.close();
});

function adapterFor(f: FakeBinanceServer) {
  return new BinanceExchange({
    apiKey: f.apiKey,
    secret: f.secret,
    baseUrl: f.url,
    enableRateLimit: false,
    retry: { sleep: async () => {}, random: () => 0.5 },
    budget: virtualBudget().budget,
  });
}

const buy = (clientOrderId: string, price: string, quantity = '0.5') =>
  ({
    market: 'spot',
    symbol: 'ETHUSDT',
    side: 'buy',
    type: 'limit',
    clientOrderId,
    quantity,
    price,
  }) as const;

describe('a resting LIMIT order on the Binance double', () => {
  it('rests as LIMIT GTC, fills in part at its limit price as a maker, stays open, then fills', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const ex = adapterFor(fake);
    const placed = await ex.placeOrder(buy('g1-3', '1950'));
    expect(placed).toMatchObject({ status: 'NEW', type: 'limit', price: '1950', filledQuantity: '0' });
    expect(fake.orderPosts().at(-1)?.params).toMatchObject({ type: 'LIMIT', timeInForce: 'GTC' });
    // 0.5 × 1950 = 975 USDT held by the order.
    expect(fake.book.spot.get('USDT')?.locked.toFixed()).toBe('975');

    // The price comes down to 1950 and 0.2 ETH trades against the order: 0.2 at 1950 = 390 USDT, commission
    // 0.1 % of the coin received, 0.0002 ETH.
    fake.setPrice('ETHUSDT', 'spot', '1950', '0.2');
    const part = await ex.fetchOrder('spot', 'ETHUSDT', 'g1-3');
    expect(part.found && part.order).toMatchObject({
      status: 'PARTIALLY_FILLED',
      filledQuantity: '0.2',
      filledQuote: '390',
      averagePrice: '1950',
      fee: '0.0002',
      feeAsset: 'ETH',
    });
    expect((await ex.openOrders('spot', 'ETHUSDT')).map((o) => o.clientOrderId)).toEqual(['g1-3']);

    // Lower still: the rest fills at the order's own price, 1950, not at 1940.
    fake.setPrice('ETHUSDT', 'spot', '1940');
    const done = await ex.fetchOrder('spot', 'ETHUSDT', 'g1-3');
    expect(done.found && done.order).toMatchObject({
      status: 'FILLED',
      filledQuantity: '0.5',
      filledQuote: '975',
      fee: '0.0005',
    });
    expect(fake.book.trades.map((t) => [t.price.toFixed(), t.qty.toFixed(), t.maker])).toEqual([
      ['1950', '0.2', true],
      ['1950', '0.3', true],
    ]);
    expect(fake.book.spot.get('ETH')?.free.toFixed()).toBe('0.4995');
    expect(await ex.openOrders('spot', 'ETHUSDT')).toEqual([]);
  });

  it('refuses a LIMIT_MAKER that would take, and rests one that would not', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const ex = adapterFor(fake);
    // A buy at 2001 with the price at 2000 would trade at once.
    expect(await rejection(ex.placeOrder({ ...buy('m-1', '2001'), postOnly: true }))).toMatchObject({
      code: -2010,
      userMessage: 'Order would immediately match and take.',
      reason: 'would_take',
    });
    const resting = await ex.placeOrder({ ...buy('m-2', '1999'), postOnly: true });
    expect(resting.status).toBe('NEW');
    expect(fake.orderPosts().at(-1)?.params).toMatchObject({ type: 'LIMIT_MAKER' });
    expect(fake.orderPosts().at(-1)?.params.timeInForce).toBeUndefined();
  });

  it('refuses a futures GTX order that would take with -5022, and it is not recorded', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    fake.book.futuresWallet = money(1000);
    const ex = adapterFor(fake);
    const gtx = { ...buy('g-1', '2001', '0.1'), market: 'future' as const, postOnly: true };
    expect(await rejection(ex.placeOrder(gtx))).toMatchObject({
      kind: 'rejected',
      code: -5022,
      reason: 'would_take',
    });
    expect(await ex.fetchOrder('future', 'ETHUSDT', 'g-1')).toEqual({ found: false });
    expect((await ex.placeOrder({ ...gtx, clientOrderId: 'g-2', price: '1999' })).status).toBe('NEW');
  });

  it('cancels by client order id; a second cancel is -2011 Unknown order sent.', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const ex = adapterFor(fake);
    await ex.placeOrder(buy('c-1', '1900'));
    fake.setPrice('ETHUSDT', 'spot', '1900', '0.1');
    const cancelled = await ex.cancelOrder('spot', 'ETHUSDT', 'c-1');
    expect(cancelled).toMatchObject({ status: 'CANCELED', filledQuantity: '0.1' });
    const del = fake.requests.filter((r) => r.method === 'DELETE').at(-1);
    expect(del?.params).toMatchObject({ origClientOrderId: 'c-1' });
    // What the order held for its unfilled 0.4 ETH (760 USDT) is free again.
    expect(fake.book.spot.get('USDT')?.locked.toFixed()).toBe('0');
    expect(await rejection(ex.cancelOrder('spot', 'ETHUSDT', 'c-1'))).toMatchObject({
      code: -2011,
      userMessage: 'Unknown order sent.',
    });
    expect(await ex.openOrders('spot', 'ETHUSDT')).toEqual([]);
  });
});

describe('the open-order and percent-price filters on the Binance double', () => {
  it('serves MAX_NUM_ORDERS and PERCENT_PRICE_BY_SIDE to the market rules and enforces them', async () => {
    fake = await FakeBinanceServer.start();
    const table = fake.book.rules('ETHUSDT', 'spot');
    fake.book.ruleOverrides.set('spot:ETHUSDT', {
      ...table,
      maxNumOrders: 2,
      percentPrice: { bidUp: '1.05', bidDown: '0.9', askUp: '1.1', askDown: '0.95' },
    });
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const ex = adapterFor(fake);
    expect(await ex.marketRules('ETHUSDT', 'spot')).toMatchObject({
      maxNumOrders: 2,
      percentPrice: { bidUp: '1.05', bidDown: '0.9', askUp: '1.1', askDown: '0.95' },
    });
    // A buy may go down to 2000 × 0.9 = 1800: 1799.99 is refused, 1800 rests.
    expect(await rejection(ex.placeOrder(buy('f-1', '1799.99', '0.01')))).toMatchObject({
      code: -1013,
      userMessage: 'Filter failure: PERCENT_PRICE_BY_SIDE',
    });
    await ex.placeOrder(buy('f-2', '1800', '0.01'));
    await ex.placeOrder(buy('f-3', '1900', '0.01'));
    // Two open orders: a third is over MAX_NUM_ORDERS.
    expect(await rejection(ex.placeOrder(buy('f-4', '1950', '0.01')))).toMatchObject({
      code: -1013,
      userMessage: 'Filter failure: MAX_NUM_ORDERS',
    });
    // Once one is gone there is room again.
    await ex.cancelOrder('spot', 'ETHUSDT', 'f-3');
    expect((await ex.placeOrder(buy('f-4', '1950', '0.01'))).status).toBe('NEW');
  });

  it('reads the futures MAX_NUM_ORDERS limit and PERCENT_PRICE multipliers', async () => {
    fake = await FakeBinanceServer.start();
    const rules = await adapterFor(fake).marketRules('ETHUSDT', 'future');
    expect(rules).toMatchObject({
      maxNumOrders: 200,
      percentPrice: { bidUp: '1.05', bidDown: '0', askUp: '0', askDown: '0.95' },
    });
  });
});
