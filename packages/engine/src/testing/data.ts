/** Real Binance candles from ../shared/data (outside the repo), for golden backtests and benchmarks. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { type Candles, parseCandlesCsv } from '../backtest/candles';

/** Absolute path of a file in /work/shared/data (the repo's sibling `shared/data`). */
export function sharedDataPath(file: string): string {
  return fileURLToPath(new URL(`../../../../../shared/data/${file}`, import.meta.url));
}

/** Absolute path of a fixture next to this file. */
export function fixturePath(file: string): string {
  return fileURLToPath(new URL(`./fixtures/${file}`, import.meta.url));
}

export function readFixture(file: string): unknown {
  return JSON.parse(readFileSync(fixturePath(file), 'utf8'));
}

const cache = new Map<string, Candles>();

/** Parsed candles of a shared data file (cached per process; callers never mutate them). */
export function loadCandles(file: string): Candles {
  let candles = cache.get(file);
  if (candles === undefined) {
    candles = parseCandlesCsv(gunzipSync(readFileSync(sharedDataPath(file))).toString('utf8'));
    cache.set(file, candles);
  }
  return candles;
}
