/** Real Binance market data for tests and benchmarks: the committed `fixtures/` at the repository root. */
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseCandleCsv } from '@gridbot/shared';
import type { Candles } from '../backtest/candles';

const FIXTURES = new URL('../../../../fixtures/', import.meta.url);

/** Absolute path of the repository's `fixtures/` directory (real candles, market rules; see its README). */
export const MARKET_DATA_DIR = fileURLToPath(FIXTURES);

/** Absolute path of a file under `fixtures/`, e.g. `backtest/binance-spot-BTCUSDT-1m-….csv.gz`. */
export function marketDataPath(file: string): string {
  return fileURLToPath(new URL(file, FIXTURES));
}

/** Absolute path of a strategy fixture next to this file. */
export function fixturePath(file: string): string {
  return fileURLToPath(new URL(`./fixtures/${file}`, import.meta.url));
}

export function readFixture(file: string): unknown {
  return JSON.parse(readFileSync(fixturePath(file), 'utf8'));
}

const cache = new Map<string, Candles>();

/**
 * Parsed candles of a gzipped candle file: a path under `fixtures/`, or an absolute path (benchmarks over
 * larger data sets). Cached per process; callers never mutate them.
 */
export function loadCandles(file: string): Candles {
  let candles = cache.get(file);
  if (candles === undefined) {
    const path = isAbsolute(file) ? file : marketDataPath(file);
    candles = parseCandleCsv(path, gunzipSync(readFileSync(path)));
    cache.set(file, candles);
  }
  return candles;
}
