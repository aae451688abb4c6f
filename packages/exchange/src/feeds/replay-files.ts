import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { MarketKind } from '@gridbot/shared';
import type { NumCandle } from './candle-book';

const CANDLE_HEADER = 'open_time_ms,open,high,low,close,volume';

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

/** Reads one candle CSV (gzipped when the name ends in .gz); undefined when its header is not a candle header. */
export async function readCandleFile(dir: string, name: string): Promise<CandleFile | undefined> {
  const raw = await readFile(join(dir, name));
  const text = (name.toLowerCase().endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  return parseCandleCsv(name, text);
}

export function parseCandleCsv(name: string, text: string): CandleFile | undefined {
  const lines = text.trim().split(/\r?\n/);
  if (lines[0]?.trim() !== CANDLE_HEADER) return undefined;
  const candles: NumCandle[] = [];
  for (let i = 1; i < lines.length; i += 1) {
    const cells = (lines[i] ?? '').split(',');
    if (cells.length < 6) continue;
    const [t, o, h, l, c, v] = cells.map(Number) as [number, number, number, number, number, number];
    if (![t, o, h, l, c].every(Number.isFinite) || l <= 0) continue;
    candles.push({ openTimeMs: t, open: o, high: h, low: l, close: c, volume: Number.isFinite(v) ? v : 0 });
  }
  if (candles.length === 0) return undefined;
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
