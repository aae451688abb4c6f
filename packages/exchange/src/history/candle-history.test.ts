import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type CandleHistoryQuery, decodeCandles } from '@gridbot/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Candle } from '../market-feed';
import { embeddedHistory, replayHistory } from './candle-history';

const H = 3_600_000;
const M15 = 900_000;
const shipped = resolve(__dirname, '../../../../fixtures/history');
const noRecorded = { candles: async () => [] as Candle[] };
const query = (q: Partial<CandleHistoryQuery>): CandleHistoryQuery => ({
  symbol: 'BTCUSDT',
  category: 'spot',
  interval: '1h',
  from: 0,
  to: Date.UTC(2030, 0, 1),
  ...q,
});

describe('embedded candle history', () => {
  it('serves the shipped hourly Binance candles of a pair, a year of them', async () => {
    const e = await embeddedHistory(shipped, noRecorded).read(query({}));
    const c = decodeCandles(e);
    expect(e.source).toBe('embedded');
    expect(c.openTimeMs.length).toBeGreaterThan(365 * 24 - 48);
    const spanDays = (c.openTimeMs[c.openTimeMs.length - 1]! - c.openTimeMs[0]!) / (24 * H);
    expect(spanDays).toBeGreaterThanOrEqual(365);
    for (let i = 1; i < c.openTimeMs.length; i++) expect(c.openTimeMs[i]! % H).toBe(0);
  });

  it('cuts the period: from inclusive, to exclusive', async () => {
    const all = decodeCandles(await embeddedHistory(shipped, noRecorded).read(query({})));
    const from = all.openTimeMs[100]!;
    const day = decodeCandles(
      await embeddedHistory(shipped, noRecorded).read(query({ from, to: from + 24 * H })),
    );
    expect(day.openTimeMs.length).toBe(24);
    expect(day.close[0]).toBe(all.close[100]);
  });

  it('has nothing for a pair without data, or an interval the set does not ship, beyond what the simulated market recorded', async () => {
    const h = embeddedHistory(shipped, noRecorded);
    expect((await h.read(query({ symbol: 'NEARUSDT' }))).dt).toEqual([]);
    expect((await h.read(query({ interval: '1m', from: 0, to: 100_000 * 60_000 }))).dt).toEqual([]);
  });

  it("adds the simulated market's recorded candles after the shipped ones, leaving out the one still forming", async () => {
    const now = Date.UTC(2030, 0, 1, 10, 30);
    const recorded: Candle[] = [8, 9, 10].map((hour) => ({
      openTimeMs: Date.UTC(2030, 0, 1, hour),
      open: '100',
      high: '101',
      low: '99',
      close: '100.5',
      volume: '1',
    })) as Candle[];
    const h = embeddedHistory(shipped, { candles: async () => recorded });
    const c = decodeCandles(await h.read(query({ symbol: 'NEARUSDT', to: now })));
    expect(Array.from(c.openTimeMs)).toEqual([Date.UTC(2030, 0, 1, 8), Date.UTC(2030, 0, 1, 9)]);
    expect(c.high[0]).toBe(101);
  });
});

describe('coverage', () => {
  it('names the shipped period first, then what the simulated market recorded', async () => {
    const recorded = [
      { openTimeMs: Date.UTC(2030, 0, 1, 8), open: '1', high: '1', low: '1', close: '1', volume: '0' },
    ];
    const h = embeddedHistory(shipped, { candles: async () => recorded as Candle[] }, () =>
      Date.UTC(2030, 0, 2),
    );
    const spans = await h.coverage({ symbol: 'BTCUSDT', category: 'spot', interval: '1h' });
    expect(spans.map((s) => s.source)).toEqual(['embedded', 'sim']);
    expect(spans[0]!.toMs - spans[0]!.fromMs).toBeGreaterThanOrEqual(365 * 24 * H);
    expect(spans[1]).toEqual({
      fromMs: Date.UTC(2030, 0, 1, 8),
      toMs: Date.UTC(2030, 0, 1, 9),
      source: 'sim',
    });
    expect(
      await embeddedHistory(shipped, noRecorded).coverage({
        symbol: 'NEARUSDT',
        category: 'spot',
        interval: '1h',
      }),
    ).toEqual([]);
  });
});

describe('replay candle history', () => {
  const T0 = Date.UTC(2023, 3, 1);
  let dir: string;
  const csv = (rows: number[][]) =>
    ['open_time_ms,open,high,low,close,volume', ...rows.map((r) => r.join(','))].join('\n');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'history-'));
    // Eight 15-minute candles with the third hour... missing: 00:00–00:45, then a gap, then 02:00–02:45.
    const rows = [0, 1, 2, 3, 8, 9, 10, 11].map((k) => [
      T0 + k * M15,
      100 + k,
      101 + k,
      99 + k,
      100.5 + k,
      1,
    ]);
    await writeFile(join(dir, 'binance-spot-BTCUSDT-15m-20230401-20230401.csv.gz'), gzipSync(csv(rows)));
    await writeFile(
      join(dir, 'binance-futures-ETHUSDT-funding-8h-x.csv'),
      'funding_time_ms,funding_rate\n1,0.1',
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads the files of the pair as they are, a gap left as a gap', async () => {
    const e = await replayHistory(dir).read(query({ interval: '15m' }));
    expect(e.source).toBe('replay');
    expect(e.dt).toEqual([0, 1, 1, 1, 5, 1, 1, 1]);
    const c = decodeCandles(e);
    expect(c.open[4]).toBe(108);
  });

  it('merges finer candles into the interval asked for (futures follow the spot pair without a file)', async () => {
    const c = decodeCandles(await replayHistory(dir).read(query({ category: 'future', interval: '1h' })));
    expect(Array.from(c.openTimeMs)).toEqual([T0, T0 + 2 * H]);
    expect([c.open[0], c.high[0], c.low[0], c.close[0]]).toEqual([100, 104, 99, 103.5]);
  });

  it('covers the files of the pair', async () => {
    expect(
      await replayHistory(dir).coverage({ symbol: 'BTCUSDT', category: 'spot', interval: '15m' }),
    ).toEqual([{ fromMs: T0, toMs: T0 + 12 * M15, source: 'replay' }]);
  });

  it('has nothing for finer candles than the files hold, or a pair without files', async () => {
    const r = replayHistory(dir);
    expect((await r.read(query({ interval: '1m', to: T0 + 86_400_000 }))).dt).toEqual([]);
    expect((await r.read(query({ symbol: 'SOLUSDT' }))).dt).toEqual([]);
  });
});
