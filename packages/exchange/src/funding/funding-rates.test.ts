/** Funding rates for paper futures (docs/trading-rules.md §2.2): the replay's files and the sim's one rate. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parseFundingCsv } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { constantFundingRates, rateOf, replayFunding, replayFundingRates } from './funding-rates';

const REPLAY_DIR = fileURLToPath(new URL('../../../../fixtures/replay', import.meta.url));
const HOUR = 3_600_000;

describe('replay funding rates', () => {
  it('reads the rate Binance published for each funding time of the replayed days', async () => {
    const rates = await replayFundingRates(REPLAY_DIR);
    // The first rows of the BTCUSDT file: 2025-05-05 00:00 and 08:00 UTC.
    expect(rates.rateAt('BTCUSDT', Date.UTC(2025, 4, 5, 0))).toBe(-2.404e-5);
    expect(rates.rateAt('BTCUSDT', Date.UTC(2025, 4, 5, 8))).toBe(3.636e-5);
    expect(rates.rateAt('XRPUSDT', Date.UTC(2025, 4, 5, 0))).toBe(-0.00010301);
    // No file for the symbol: no funding unless a fallback rate is given.
    expect(rates.rateAt('DOGEUSDT', Date.UTC(2025, 4, 5, 0))).toBeUndefined();
    expect((await replayFundingRates(REPLAY_DIR, 0.0001)).rateAt('DOGEUSDT', 0)).toBe(0.0001);
  });

  it('matches a funding time despite the few ms of jitter in the published times', () => {
    const series = parseFundingCsv(
      'rates.csv',
      'funding_time_ms,funding_rate\n28800004,0.0001\n57600002,-0.0002\n',
    );
    expect(rateOf(series, 8 * HOUR)).toBe(0.0001);
    expect(rateOf(series, 16 * HOUR)).toBe(-0.0002);
    expect(rateOf(series, 0)).toBeUndefined();
  });

  it("reads a symbol funding every 4 h at its own times (the market rules' interval)", () => {
    const series = parseFundingCsv(
      'rates.csv',
      'funding_time_ms,funding_rate\n14400000,0.0001\n28800000,-0.0002\n',
    );
    expect(rateOf(series, 4 * HOUR, 4 * HOUR)).toBe(0.0001);
    expect(rateOf(series, 8 * HOUR, 4 * HOUR)).toBe(-0.0002);
    // The looping replay folds back by whole 4 h periods: 12:00 is 04:00 again (by 8 h it would be 08:00).
    expect(rateOf(series, 12 * HOUR, 4 * HOUR)).toBe(0.0001);
  });

  it('follows the looping replay: a time past the file folds back by the file span', () => {
    // Three funding times (a 24 h span): the fourth period is the first again.
    const series = parseFundingCsv(
      'rates.csv',
      'funding_time_ms,funding_rate\n0,0.1\n28800000,0.2\n57600000,0.3\n',
    );
    expect(rateOf(series, 24 * HOUR)).toBe(0.1);
    expect(rateOf(series, 32 * HOUR)).toBe(0.2);
    expect(rateOf(series, 64 * HOUR)).toBe(0.3);
  });

  it('gives paper futures the rate a backtest of the same replay books at each funding time', async () => {
    const rates = await replayFundingRates(REPLAY_DIR);
    for (const symbol of ['BTCUSDT', 'ETHUSDT', 'XRPUSDT']) {
      const from = Date.UTC(2025, 4, 5);
      const history = await replayFunding(REPLAY_DIR).read({ symbol, from, to: from + 2 * 24 * HOUR });
      expect(history.timeMs.length).toBeGreaterThan(3);
      // The published times fall a few ms after the hour; paper futures ask for the hour itself.
      const onTheHour = history.timeMs.map((t) => Math.floor(t / HOUR) * HOUR);
      expect(onTheHour.map((t) => rates.rateAt(symbol, t))).toEqual(history.rate);
    }
  });

  it('stops at a funding file with a bad row, naming the file and the line, instead of skipping the row', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gridbot-funding-'));
    try {
      const file = join(dir, 'binance-futures-BTCUSDT-funding-8h-20250505-20250506.csv.gz');
      await writeFile(file, gzipSync('funding_time_ms,funding_rate\n28800004,0.0001\n57600002,n/a\n'));
      await expect(replayFundingRates(dir)).rejects.toThrow(`${file}:3: field 2 is not a number`);
      await expect(replayFunding(dir).read({ symbol: 'BTCUSDT', from: 0, to: 24 * HOUR })).rejects.toThrow(
        `${file}:3: field 2 is not a number`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('sim funding rate', () => {
  it('is the configured rate for every symbol and time', () => {
    const rates = constantFundingRates(0.0001);
    expect(rates.rateAt('BTCUSDT', 0)).toBe(0.0001);
    expect(rates.rateAt('SOLUSDT', Date.UTC(2026, 0, 1, 16))).toBe(0.0001);
  });
});
