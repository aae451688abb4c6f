import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CsvFormatError, type MarketKind, parseCandleCsv } from '@gridbot/shared';
import type { NumCandle } from './candle-book';

/** Candles of one file, ascending, with the interval between them. */
export interface CandleFile {
  name: string;
  intervalMs: number;
  candles: NumCandle[];
}

/** CSV file names of a directory, in name order (the order that decides between several matches). */
export async function listCandleFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir);
  return names.filter((name) => /\.csv(\.gz)?$/i.test(name)).sort();
}

/**
 * Files that may feed `symbol` on `market`, first in name order: the name contains the symbol as a
 * word (`binance-spot-BTCUSDT-1m-….csv.gz`), and contains `futures` exactly when the market is futures.
 * Funding-rate files are skipped.
 */
export function matchingFiles(names: readonly string[], symbol: string, market: MarketKind): string[] {
  const word = new RegExp(`(^|[^A-Z0-9])${symbol}([^A-Z0-9]|$)`, 'i');
  return names.filter((name) => {
    if (!word.test(name) || /funding/i.test(name)) return false;
    return /futures/i.test(name) === (market === 'future');
  });
}

/** The bytes of a market file, un-gzipped when its name ends in .gz. */
export async function readMarketFile(path: string): Promise<Uint8Array> {
  const raw = await readFile(path);
  if (!path.toLowerCase().endsWith('.gz')) return raw;
  try {
    return gunzipSync(raw);
  } catch {
    throw new CsvFormatError(path, undefined, 'ends in .gz but is not valid gzip');
  }
}

/**
 * Reads one candle CSV with the strict reader of @gridbot/shared: a bad row stops the read with an error naming
 * the file and its line, so the replay never plays a market with candles silently left out.
 */
export async function readCandleFile(dir: string, name: string): Promise<CandleFile> {
  const path = join(dir, name);
  const csv = parseCandleCsv(path, await readMarketFile(path));
  const candles: NumCandle[] = Array.from(csv.openTimeMs, (openTimeMs, i) => ({
    openTimeMs,
    open: csv.open[i] as number,
    high: csv.high[i] as number,
    low: csv.low[i] as number,
    close: csv.close[i] as number,
    volume: csv.volume[i] as number,
  }));
  return { name, intervalMs: detectInterval(candles), candles };
}

/** Smallest gap between the first candles: the file's interval (gaps only make later ones larger). */
function detectInterval(candles: readonly NumCandle[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 1; i < Math.min(candles.length, 50); i += 1) {
    const diff = candles[i]!.openTimeMs - candles[i - 1]!.openTimeMs;
    if (diff > 0 && diff < best) best = diff;
  }
  return Number.isFinite(best) ? best : 60_000;
}

/** Aggregates candles into buckets of `intervalMs` (only when not finer than the file's own). */
export function aggregateCandles(candles: readonly NumCandle[], intervalMs: number): NumCandle[] {
  const out: NumCandle[] = [];
  for (const c of candles) {
    const openTimeMs = Math.floor(c.openTimeMs / intervalMs) * intervalMs;
    const last = out[out.length - 1];
    if (last && last.openTimeMs === openTimeMs) {
      last.high = Math.max(last.high, c.high);
      last.low = Math.min(last.low, c.low);
      last.close = c.close;
      last.volume += c.volume;
    } else {
      out.push({ ...c, openTimeMs });
    }
  }
  return out;
}

/** The four ticks of a candle (docs/trading-rules.md §2.5): o, l, h, c when it closed up, else o, h, l, c. */
export function candleTicks(c: NumCandle): [number, number, number, number] {
  return c.close >= c.open ? [c.open, c.low, c.high, c.close] : [c.open, c.high, c.low, c.close];
}
