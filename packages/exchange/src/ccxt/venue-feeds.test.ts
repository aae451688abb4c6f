import type { Exchange as CcxtExchange } from 'ccxt';
import { describe, expect, it } from 'vitest';
import { createMarketFeed } from '../feeds/create-market-feed';
import { VenueKlines } from './venue-feeds';

const HOUR = 3_600_000;
const T0 = Date.UTC(2025, 0, 1);

interface Call {
  symbol: string;
  since: number;
  limit: number;
  params: object;
}

/**
 * ccxt's unified answers (ascending rows) from a series of candles or funding times: what ccxt's bybit and okx
 * classes return once they have parsed and sorted the exchange's newest-first pages. Each call returns at most
 * `limit` rows from `since`, so a request that asked for more than a page would visibly lose rows.
 */
function fakeClient(times: readonly number[]) {
  const calls: Call[] = [];
  const page = (since: number, limit: number) => times.filter((t) => t >= since).slice(0, limit);
  const client = {
    async fetchOHLCV(symbol: string, _interval: string, since: number, limit: number, params: object) {
      calls.push({ symbol, since, limit, params });
      return page(since, limit).map((t) => [t, 1, 2, 0.5, 1.5, 10]);
    },
    async fetchFundingRateHistory(symbol: string, since: number, limit: number, params: object) {
      calls.push({ symbol, since, limit, params });
      return page(since, limit).map((t) => ({ timestamp: t, fundingRate: 0.0001 }));
    },
    async close() {},
  };
  return { client: client as unknown as CcxtExchange, calls };
}

describe('VenueKlines', () => {
  it("pages Bybit's hourly candles in windows of one 200-candle page, each bounded by ccxt's until", async () => {
    // 450 hourly candles: pages of 200, 200 and 50.
    const times = Array.from({ length: 450 }, (_, i) => T0 + i * HOUR);
    const { client, calls } = fakeClient(times);
    const candles = await new VenueKlines('bybit', client).fetch(
      'BTCUSDT',
      'spot',
      '1h',
      T0,
      T0 + 450 * HOUR,
    );
    expect(candles.map((c) => c.openTimeMs)).toEqual(times);
    expect(calls).toEqual([
      { symbol: 'BTC/USDT', since: T0, limit: 200, params: { until: T0 + 200 * HOUR - 1 } },
      { symbol: 'BTC/USDT', since: T0 + 200 * HOUR, limit: 200, params: { until: T0 + 400 * HOUR - 1 } },
      { symbol: 'BTC/USDT', since: T0 + 400 * HOUR, limit: 200, params: { until: T0 + 450 * HOUR - 1 } },
    ]);
  });

  it("pages OKX's candles 100 at a time and goes on past a window without candles", async () => {
    // Candles 0–99 and 200–249: the window 100–199 is empty (a halt), which must not end the paging.
    const times = [
      ...Array.from({ length: 100 }, (_, i) => i),
      ...Array.from({ length: 50 }, (_, i) => 200 + i),
    ].map((i) => T0 + i * HOUR);
    const { client, calls } = fakeClient(times);
    const candles = await new VenueKlines('okx', client).fetch(
      'ETHUSDT',
      'future',
      '1h',
      T0,
      T0 + 250 * HOUR,
    );
    expect(candles.map((c) => c.openTimeMs)).toEqual(times);
    expect(calls.map((c) => [c.symbol, c.since, c.limit])).toEqual([
      ['ETH/USDT:USDT', T0, 100],
      ['ETH/USDT:USDT', T0 + 100 * HOUR, 100],
      ['ETH/USDT:USDT', T0 + 200 * HOUR, 100],
    ]);
  });

  it('keeps only candles within [from, to), each once', async () => {
    const times = Array.from({ length: 10 }, (_, i) => T0 + i * HOUR);
    const { client } = fakeClient([...times, T0 + 3 * HOUR]);
    const candles = await new VenueKlines('bybit', client).fetch(
      'BTCUSDT',
      'spot',
      '1h',
      T0 + HOUR,
      T0 + 5 * HOUR,
    );
    expect(candles.map((c) => (c.openTimeMs - T0) / HOUR)).toEqual([1, 2, 3, 4]);
    expect(candles[0]).toEqual({ openTimeMs: T0 + HOUR, open: 1, high: 2, low: 0.5, close: 1.5, volume: 10 });
  });

  it('pages funding in windows no funding interval can overfill: OKX bounded by its after, Bybit by until', async () => {
    // Funding every 8 h over 30 days: 90 rates.
    const times = Array.from({ length: 90 }, (_, i) => T0 + i * 8 * HOUR);
    const okx = fakeClient(times);
    const rates = await new VenueKlines('okx', okx.client).fundingRates('BTCUSDT', T0, T0 + 720 * HOUR);
    expect(rates.timeMs).toEqual(times);
    expect(rates.rate.every((r) => r === 0.0001)).toBe(true);
    // Windows of 100 one-hour intervals: even hourly funding could not fill more than one page of 100.
    expect(okx.calls.map((c) => [c.since, c.params])).toEqual(
      Array.from({ length: 8 }, (_, i) => [
        T0 + i * 100 * HOUR,
        { after: Math.min(T0 + 720 * HOUR, T0 + (i + 1) * 100 * HOUR) },
      ]),
    );
    const bybit = fakeClient(times);
    await new VenueKlines('bybit', bybit.client).fundingRates('BTCUSDT', T0, T0 + 720 * HOUR);
    expect(bybit.calls.map((c) => [c.symbol, c.limit, c.params])).toEqual([
      ['BTC/USDT:USDT', 200, { until: T0 + 200 * HOUR - 1 }],
      ['BTC/USDT:USDT', 200, { until: T0 + 400 * HOUR - 1 }],
      ['BTC/USDT:USDT', 200, { until: T0 + 600 * HOUR - 1 }],
      ['BTC/USDT:USDT', 200, { until: T0 + 720 * HOUR - 1 }],
    ]);
  });
});

describe('Bybit and OKX market feeds', () => {
  it('builds the feed MARKET_FEED names, serving the 22 pairs, with no price before a stream runs', async () => {
    for (const kind of ['bybit', 'okx'] as const) {
      const feed = await createMarketFeed({ kind });
      expect(feed.kind).toBe(kind);
      expect(feed.symbols()).toHaveLength(22);
      expect(feed.lastPrice('BTCUSDT', 'future')).toBeUndefined();
      await feed.stop();
    }
  });
});
