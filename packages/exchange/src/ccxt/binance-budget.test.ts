import { describe, expect, it } from 'vitest';
import { binanceCosts, binanceLimitsOf } from './binance-budget';

const who = { egress: 'nat-1', account: 'acct-7' };
const costs = (venue: 'spot' | 'usdm', method: string, path: string, params = {}, api = 'private') =>
  binanceCosts(venue, { api, method, path, params }, who).map((c) => [c.key, c.weight, c.windows]);

describe("what a Binance request costs in the shared budgets (Binance's documented weights)", () => {
  it('spot: weight on the IP (6000 a minute, 5400 spent), a new order also one on the account (50 per 10 s, 160,000 a day)', () => {
    expect(costs('spot', 'GET', 'account')).toEqual([
      ['binance:spot:ip:nat-1', 20, [{ limit: 5400, windowMs: 60_000 }]],
    ]);
    expect(costs('spot', 'POST', 'order', { symbol: 'BTCUSDT' })).toEqual([
      ['binance:spot:ip:nat-1', 1, [{ limit: 5400, windowMs: 60_000 }]],
      [
        'binance:spot:orders:acct-7',
        1,
        [
          { limit: 45, windowMs: 10_000 },
          { limit: 144_000, windowMs: 86_400_000 },
        ],
      ],
    ]);
  });

  it('spot weights depend on the parameters as documented', () => {
    expect(costs('spot', 'GET', 'openOrders', { symbol: 'BTCUSDT' })[0]?.[1]).toBe(6);
    expect(costs('spot', 'GET', 'openOrders')[0]?.[1]).toBe(80);
    expect(costs('spot', 'GET', 'myTrades', { symbol: 'BTCUSDT', orderId: '1' })[0]?.[1]).toBe(5);
    expect(costs('spot', 'GET', 'myTrades', { symbol: 'BTCUSDT' })[0]?.[1]).toBe(20);
    expect(costs('spot', 'GET', 'exchangeInfo', {}, 'public')[0]?.[1]).toBe(20);
  });

  it('USDⓈ-M: 2400 a minute on the IP (2160 spent); a new order weighs 0 there and 1 of the 1200 a minute and of the 300 in 10 s on the account', () => {
    expect(costs('usdm', 'POST', 'order', { symbol: 'BTCUSDT' }, 'fapiPrivate')).toEqual([
      ['binance:usdm:ip:nat-1', 0, [{ limit: 2160, windowMs: 60_000 }]],
      [
        'binance:usdm:orders:acct-7',
        1,
        [
          { limit: 1080, windowMs: 60_000 },
          { limit: 270, windowMs: 10_000 },
        ],
      ],
    ]);
    expect(costs('usdm', 'GET', 'positionSide/dual', {}, 'fapiPrivate')[0]?.[1]).toBe(30);
    expect(costs('usdm', 'GET', 'klines', { limit: 1000 }, 'fapiPublic')[0]?.[1]).toBe(5);
    expect(costs('usdm', 'GET', 'klines', { limit: 99 }, 'fapiPublic')[0]?.[1]).toBe(1);
  });

  it('USDⓈ-M funding rate history spends its own 500 per 5 minutes per IP (450 spent), not request weight', () => {
    expect(costs('usdm', 'GET', 'fundingRate', {}, 'fapiPublic')).toEqual([
      ['binance:usdm:funding-rate:nat-1', 1, [{ limit: 450, windowMs: 300_000 }]],
      ['binance:usdm:ip:nat-1', 0, [{ limit: 2160, windowMs: 60_000 }]],
    ]);
  });

  it('an endpoint the table does not list is charged as a heavy one (20)', () => {
    expect(costs('spot', 'GET', 'allOrders')[0]?.[1]).toBe(20);
  });

  it('with budgets off (tests) only the back-offs of the same keys are honoured', () => {
    expect(
      binanceCosts('spot', { api: 'private', method: 'POST', path: 'order', params: {} }, who, {
        weighted: false,
      }),
    ).toEqual([
      { key: 'binance:spot:ip:nat-1', weight: 0, windows: [] },
      { key: 'binance:spot:orders:acct-7', weight: 0, windows: [] },
    ]);
  });

  it("an account's own limits are spent to 90 % like the published ones", () => {
    // 2400 futures orders a minute and 600 per 10 s: 2160 and 540.
    expect(
      binanceLimitsOf({
        usdmOrders: [
          [2400, 60_000],
          [600, 10_000],
        ],
      }),
    ).toEqual({
      usdmOrders: [
        { limit: 2160, windowMs: 60_000 },
        { limit: 540, windowMs: 10_000 },
      ],
    });
  });
});
