import { createTestDb, type DbHandle } from '@gridbot/db';
import type { NumCandle } from '@gridbot/exchange';
import { BinanceKlines } from '@gridbot/exchange/binance';
import { FakeBinanceServer, virtualBudget } from '@gridbot/exchange/testing';
import { candleHistoryMessages, decodeCandles, type EncodedCandles } from '@gridbot/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { binanceHistory, missingRanges } from './binance-history';

const H = 3_600_000;
const M = 60_000;
// 2023-06-01, inside the shipped hourly BTCUSDT candles (fixtures/history).
const DAY = Date.UTC(2023, 5, 1);

describe('GET /api/candles with from and to (embedded default)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await registerUser(t, 'candles')).token;
  });
  afterAll(() => t.close());

  it('answers a day of hourly candles in the compact encoding', async () => {
    const r = await call(
      t,
      'GET',
      `/api/candles?symbol=BTCUSDT&category=spot&interval=1h&from=${DAY}&to=${DAY + 24 * H}`,
      undefined,
      { token },
    );
    expect(r.status).toBe(200);
    const c = decodeCandles(r.body as unknown as EncodedCandles);
    expect(c.openTimeMs.length).toBe(24);
    expect(c.openTimeMs[0]).toBe(DAY);
    expect((r.body as unknown as EncodedCandles).source).toBe('embedded');
  });

  it('says so for a pair without data, and refuses a bad interval or period', async () => {
    const none = await call(
      t,
      'GET',
      `/api/candles?symbol=NEARUSDT&interval=1h&from=${DAY}&to=${DAY + H}`,
      undefined,
      { token },
    );
    expect(none).toMatchObject({
      status: 404,
      body: { message: candleHistoryMessages.noCandles('NEARUSDT', '1h') },
    });
    const bad = await call(
      t,
      'GET',
      `/api/candles?symbol=BTCUSDT&interval=5m&from=${DAY}&to=${DAY + H}`,
      undefined,
      { token },
    );
    expect(bad).toMatchObject({ status: 400, body: { message: candleHistoryMessages.intervalInvalid } });
    const back = await call(
      t,
      'GET',
      `/api/candles?symbol=BTCUSDT&interval=1h&from=${DAY}&to=${DAY}`,
      undefined,
      { token },
    );
    expect(back).toMatchObject({ status: 400, body: { message: candleHistoryMessages.periodInvalid } });
  });

  it('names the periods with candles: the shipped year first', async () => {
    const r = await call(
      t,
      'GET',
      '/api/candles/coverage?symbol=BTCUSDT&category=spot&interval=1h',
      undefined,
      { token },
    );
    expect(r.status).toBe(200);
    const spans = r.body.spans as { fromMs: number; toMs: number; source: string }[];
    expect(spans[0]?.source).toBe('embedded');
    expect((spans[0]?.toMs ?? 0) - (spans[0]?.fromMs ?? 0)).toBeGreaterThanOrEqual(365 * 24 * H);
    const bad = await call(t, 'GET', '/api/candles/coverage?symbol=BTCUSDT&interval=4h', undefined, {
      token,
    });
    expect(bad).toMatchObject({ status: 400, body: { message: candleHistoryMessages.intervalInvalid } });
  });

  it('sends the funding rates of the period with futures candles, none with spot', async () => {
    // 2025-04-01: inside both the shipped hourly BNBUSDT candles and its shipped funding rates.
    const APR_1 = Date.UTC(2025, 3, 1);
    const url = (category: string) =>
      `/api/candles?symbol=BNBUSDT&category=${category}&interval=1h&from=${APR_1}&to=${APR_1 + 24 * H}`;
    const future = await call(t, 'GET', url('future'), undefined, { token });
    expect(future.status).toBe(200);
    const funding = (future.body as unknown as EncodedCandles).funding;
    expect(funding?.timeMs.map((ms) => new Date(ms).getUTCHours())).toEqual([0, 8, 16]);
    expect(funding?.rate.every((r) => typeof r === 'number' && Math.abs(r) < 0.003)).toBe(true);
    const spot = await call(t, 'GET', url('spot'), undefined, { token });
    expect((spot.body as unknown as EncodedCandles).funding).toBeUndefined();
  });

  it('needs a login', async () => {
    expect((await call(t, 'GET', '/api/candles/coverage?symbol=BTCUSDT&interval=1h')).status).toBe(401);
    const r = await call(t, 'GET', `/api/candles?symbol=BTCUSDT&interval=1h&from=${DAY}&to=${DAY + H}`);
    expect(r.status).toBe(401);
  });
});

describe('Binance candle history through the fake Binance server', () => {
  let fake: FakeBinanceServer;
  let handle: DbHandle;
  let klines: BinanceKlines;
  const T0 = Date.UTC(2025, 4, 5);
  const candle = (k: number): NumCandle => ({
    openTimeMs: T0 + k * M,
    open: 100 + k / 100,
    high: 101 + k / 100,
    low: 99 + k / 100,
    close: 100.5 + k / 100,
    volume: 1,
  });
  // 2,500 one-minute candles with minutes 1,200–1,259 missing (an hour Binance had no trading).
  const minutes = Array.from({ length: 2500 }, (_, k) => k).filter((k) => k < 1200 || k >= 1260);
  const klineCalls = () => fake.requests.filter((r) => r.path === '/api/v3/klines').length;

  beforeAll(async () => {
    fake = await FakeBinanceServer.start();
    fake.setKlines('BTCUSDT', 'spot', '1m', minutes.map(candle));
    handle = await createTestDb();
    klines = new BinanceKlines({ baseUrl: fake.url, budget: virtualBudget().budget });
  });
  afterAll(async () => {
    await klines.close();
    await fake.close();
    await handle.close();
  });

  it('fetches the period in pages once, keeps the gap as a gap, and reads it from the database afterwards', async () => {
    const history = binanceHistory(handle.db, klines, () => T0 + 10 * 86_400_000);
    const q = { symbol: 'BTCUSDT', category: 'spot', interval: '1m', from: T0, to: T0 + 2500 * M } as const;
    const first = decodeCandles(await history.read(q));
    expect(first.openTimeMs.length).toBe(2440);
    expect(first.openTimeMs[1200]).toBe(T0 + 1260 * M);
    expect(first.close[0]).toBe(100.5);
    const calls = klineCalls();
    expect(calls).toBe(3);
    const again = decodeCandles(await history.read({ ...q, from: T0 + 100 * M, to: T0 + 1300 * M }));
    expect(again.openTimeMs.length).toBe(1140);
    expect(klineCalls()).toBe(calls);
  });

  it('asks only for the part of a period not fetched before', async () => {
    const history = binanceHistory(handle.db, klines, () => T0 + 10 * 86_400_000);
    const before = klineCalls();
    const c = decodeCandles(
      await history.read({
        symbol: 'BTCUSDT',
        category: 'spot',
        interval: '1m',
        from: T0 + 2400 * M,
        to: T0 + 2600 * M,
      }),
    );
    expect(c.openTimeMs.length).toBe(100);
    expect(klineCalls()).toBe(before + 1);
    const asked = fake.requests.filter((r) => r.path === '/api/v3/klines').at(-1);
    expect(Number(asked?.params.startTime)).toBe(T0 + 2500 * M);
  });

  it('has nothing for a pair Binance has no klines of, and does not ask again', async () => {
    const history = binanceHistory(handle.db, klines, () => T0 + 10 * 86_400_000);
    const q = { symbol: 'ETHUSDT', category: 'spot', interval: '1h', from: T0, to: T0 + 48 * H } as const;
    expect((await history.read(q)).dt).toEqual([]);
    const calls = klineCalls();
    expect((await history.read(q)).dt).toEqual([]);
    expect(klineCalls()).toBe(calls);
  });

  it('pages the funding-rate history of a futures pair within the period', async () => {
    const P8 = 8 * H;
    // 1,200 funding times: more than one page of 1,000.
    fake.setFundingRates(
      'BTCUSDT',
      Array.from({ length: 1200 }, (_, k) => ({
        fundingTime: T0 + k * P8 + 3,
        fundingRate: (k % 7) / 10_000 - 0.0002,
      })),
    );
    const before = fake.requests.filter((r) => r.path === '/fapi/v1/fundingRate').length;
    const f = await klines.fundingRates('BTCUSDT', T0 + P8, T0 + 1150 * P8);
    expect(f.timeMs.length).toBe(1149);
    expect(f.timeMs[0]).toBe(T0 + P8 + 3);
    expect(f.rate[0]).toBeCloseTo(-0.0001, 12);
    expect(fake.requests.filter((r) => r.path === '/fapi/v1/fundingRate').length - before).toBe(2);
    expect((await klines.fundingRates('ETHUSDT', T0, T0 + 10 * P8)).timeMs).toEqual([]);
  });

  it('finds the parts of a period that no fetched span covers', () => {
    expect(missingRanges([], 0, 10)).toEqual([[0, 10]]);
    expect(
      missingRanges(
        [
          { fromMs: 2, toMs: 4 },
          { fromMs: 6, toMs: 12 },
        ],
        0,
        10,
      ),
    ).toEqual([
      [0, 2],
      [4, 6],
    ]);
    expect(missingRanges([{ fromMs: 0, toMs: 10 }], 3, 8)).toEqual([]);
  });
});
