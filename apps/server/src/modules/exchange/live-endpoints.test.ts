/** Which exchanges take keys in live mode, by the market the deployment follows (MARKET_FEED). */
import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../config/env';
import { liveEndpoints } from './market-setup';

const exchangesOf = (source: Record<string, string>) => Object.keys(liveEndpoints(parseEnv(source))).sort();

describe('liveEndpoints', () => {
  it("takes Bybit and OKX keys on any exchange's real market, Binance's, Bybit's or OKX's", () => {
    for (const feed of ['binance', 'bybit', 'okx'])
      expect(exchangesOf({ EXCHANGE: 'binance', MARKET_FEED: feed })).toEqual(['binance', 'bybit', 'okx']);
  });

  it('takes them on a simulated or replayed market only against a server of their own', () => {
    const double = { EXCHANGE: 'binance', MARKET_FEED: 'replay', BINANCE_REST_URL: 'http://127.0.0.1:9' };
    expect(exchangesOf(double)).toEqual(['binance']);
    expect(exchangesOf({ ...double, EXCHANGE_REST_URL_BYBIT: 'http://127.0.0.1:10' })).toEqual([
      'binance',
      'bybit',
    ]);
  });
});
