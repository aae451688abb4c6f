import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { ReplayFeed } from './replay-feed';
import { matchingFiles } from './replay-files';

const HEADER = 'open_time_ms,open,high,low,close,volume';
const T0 = Date.UTC(2021, 4, 19, 0, 0);
const csv = (rows: number[][]) => [HEADER, ...rows.map((r) => r.join(','))].join('\n');

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replay-'));
  // BTC: an up candle then a down candle (1m).
  const btc = csv([
    [T0, 100, 110, 90, 105, 4],
    [T0 + 60_000, 105, 108, 95, 97, 8],
  ]);
  await writeFile(join(dir, 'binance-spot-BTCUSDT-1m-20210519-20210519.csv.gz'), gzipSync(btc));
  await writeFile(join(dir, 'binance-spot-BTCUSDT-1m-20210520-zz.csv'), csv([[T0, 1, 1, 1, 1, 1]]));
  await writeFile(join(dir, 'binance-futures-ETHUSDT-1m-x.csv'), csv([[T0, 2000, 2010, 1990, 2005, 1]]));
  await writeFile(
    join(dir, 'binance-futures-ETHUSDT-funding-8h-x.csv.gz'),
    gzipSync('funding_time_ms,funding_rate\n1,0.0001'),
  );
  await writeFile(join(dir, 'binance-spot-SOLUSDT-1h-x.csv'), csv([[T0, 150, 151, 149, 150.5, 1]]));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ReplayFeed', () => {
  it('matches files to symbols by name: first in name order, futures by the word futures', async () => {
    const names = [
      'binance-spot-ETHUSDT-1m-b.csv',
      'binance-spot-ETHUSDT-1m-a.csv.gz',
      'binance-futures-ETHUSDT-5m.csv',
    ];
    expect(matchingFiles([...names].sort(), 'ETHUSDT', 'spot')).toEqual([
      'binance-spot-ETHUSDT-1m-a.csv.gz',
      'binance-spot-ETHUSDT-1m-b.csv',
    ]);
    expect(matchingFiles(names, 'ETHUSDT', 'future')).toEqual(['binance-futures-ETHUSDT-5m.csv']);
    expect(matchingFiles(['binance-spot-ETCUSDT-1h.csv'], 'ETHUSDT', 'spot')).toEqual([]);
  });

  it('says which file feeds each stream; futures follow spot, spot follows futures, the rest is simulated', async () => {
    const feed = new ReplayFeed({
      dir,
      clock: new FakeClock(),
      symbols: ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT'],
      warmupCandles: 0,
    });
    expect(await feed.sources()).toEqual({
      'spot:BTCUSDT': 'binance-spot-BTCUSDT-1m-20210519-20210519.csv.gz',
      'future:BTCUSDT': 'binance-spot-BTCUSDT-1m-20210519-20210519.csv.gz',
      'spot:ETHUSDT': 'binance-futures-ETHUSDT-1m-x.csv',
      'future:ETHUSDT': 'binance-futures-ETHUSDT-1m-x.csv',
      'spot:SOLUSDT': 'binance-spot-SOLUSDT-1h-x.csv',
      'future:SOLUSDT': 'binance-spot-SOLUSDT-1h-x.csv',
      'spot:XRPUSDT': 'sim',
      'future:XRPUSDT': 'sim',
    });
  });

  it('replays each candle as four ticks (o,l,h,c up; o,h,l,c down) N times faster than real time', async () => {
    const clock = new FakeClock();
    const feed = new ReplayFeed({
      dir,
      clock,
      speed: 60,
      pollMs: 50,
      symbols: ['BTCUSDT'],
      warmupCandles: 0,
      loop: false,
    });
    const prices: string[] = [];
    const times: number[] = [];
    feed.subscribe('BTCUSDT', 'spot', (t) => {
      prices.push(t.price);
      times.push(t.tsMs);
    });
    await feed.start();
    expect(prices).toEqual(['100.00']);
    clock.advance(1000); // one 1m candle at 60×
    expect(prices).toEqual(['100.00', '90.00', '110.00', '105.00', '105.00']);
    clock.advance(1000);
    expect(prices.slice(4)).toEqual(['105.00', '108.00', '95.00', '97.00']);
    expect(times.slice(0, 4)).toEqual([T0, T0 + 15_000, T0 + 30_000, T0 + 45_000]);
    const candles = await feed.candles('BTCUSDT', 'spot', '1m', 10);
    expect(candles.map((c) => [c.open, c.high, c.low, c.close])).toEqual([
      ['100.00', '110.00', '90.00', '105.00'],
      ['105.00', '108.00', '95.00', '97.00'],
    ]);
    await feed.stop();
  });

  it('spreads the streams over the spacing of their ticks instead of publishing them all at once', async () => {
    const clock = new FakeClock();
    const feed = new ReplayFeed({
      dir,
      clock,
      speed: 60, // a tick every 15 s of replayed time = every 250 ms of wall time
      pollMs: 10,
      symbols: ['BTCUSDT', 'ETHUSDT'],
      warmupCandles: 0,
      loop: false,
    });
    const seen: Array<[string, number, number]> = [];
    for (const symbol of ['BTCUSDT', 'ETHUSDT'])
      feed.subscribe(symbol, 'spot', (t) => void seen.push([symbol, t.tsMs, clock.now()]));
    await feed.start();
    const started = clock.now();
    // Every stream has its first price at start; then spot ETHUSDT, the third of four streams (spot and
    // futures of each pair), ticks half a spacing after spot BTCUSDT.
    expect(seen).toEqual([
      ['BTCUSDT', T0, started],
      ['ETHUSDT', T0, started],
    ]);
    clock.advance(250);
    expect(seen.at(-1)).toEqual(['BTCUSDT', T0 + 15_000, started + 250]);
    clock.advance(120);
    expect(seen).toHaveLength(3);
    clock.advance(10);
    expect(seen.at(-1)).toEqual(['ETHUSDT', T0 + 15_000, started + 380]); // the tick's own time, 125 ms late
    expect(seen.filter(([symbol]) => symbol === 'BTCUSDT').map(([, tsMs]) => tsMs)).toEqual([
      T0,
      T0 + 15_000,
    ]);
    await feed.stop();
  });

  it('replays the committed Binance candles of fixtures/replay', async () => {
    const fixtures = resolve(__dirname, '../../../../fixtures/replay');
    const feed = new ReplayFeed({ dir: fixtures, clock: new FakeClock(), symbols: ['BTCUSDT'] });
    const sources = await feed.sources();
    expect(sources['spot:BTCUSDT']).toMatch(/^binance-spot-BTCUSDT-/);
    expect(sources['future:BTCUSDT']).toMatch(/^binance-futures-BTCUSDT-/);
    await feed.start();
    expect(Number(feed.lastPrice('BTCUSDT', 'spot'))).toBeGreaterThan(1000);
    expect((await feed.candles('BTCUSDT', 'spot', '1h', 50)).length).toBeGreaterThan(10);
    await feed.stop();
  });

  it('stops at a candle file with a bad row, naming the file and the line, instead of replaying without it', async () => {
    const bad = await mkdtemp(join(tmpdir(), 'replay-bad-'));
    try {
      const file = join(bad, 'binance-spot-BTCUSDT-1m-20210519-20210519.csv');
      const rows = csv([
        [T0, 100, 110, 90, 105, 4],
        [T0 + 60_000, 105, 108, 95, 97, 8],
      ]);
      await writeFile(file, rows.replace(',97,', ',,'));
      const feed = new ReplayFeed({
        dir: bad,
        clock: new FakeClock(),
        symbols: ['BTCUSDT'],
        warmupCandles: 0,
      });
      await expect(feed.sources()).rejects.toThrow(`${file}:3: field 5 is not a number`);
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  });
});
