/**
 * Funding rates of USDT-M perpetuals for paper trading (docs/trading-rules.md §2.2): the replay feed's come from
 * the funding-rate files beside its candles, the simulated market's are one configured rate.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** The funding rate (a fraction per 8 h) of a symbol at a funding time, or undefined when none is known. */
export interface FundingRates {
  rateAt(symbol: string, fundingTimeMs: number): number | undefined;
}

const FUNDING_HEADER = 'funding_time_ms,funding_rate';
/** Binance's funding times jitter by a few ms after the hour. */
const JITTER_MS = 1_000;
const EIGHT_HOURS_MS = 8 * 3_600_000;

/** The simulated market: every symbol funds at `rate` (Binance's base rate is 0.01 % = 0.0001). */
export function constantFundingRates(rate: number): FundingRates {
  return { rateAt: () => rate };
}

interface RateSeries {
  timeMs: number[];
  rate: number[];
}

/** Parses `funding_time_ms,funding_rate` rows (ascending); undefined when the header is another one. */
export function parseFundingCsv(text: string): RateSeries | undefined {
  const lines = text.trim().split(/\r?\n/);
  if (lines[0]?.trim() !== FUNDING_HEADER) return undefined;
  const series: RateSeries = { timeMs: [], rate: [] };
  for (const line of lines.slice(1)) {
    const [t, r] = line.split(',').map(Number) as [number, number];
    if (!Number.isFinite(t) || !Number.isFinite(r)) continue;
    series.timeMs.push(t);
    series.rate.push(r);
  }
  return series.timeMs.length > 0 ? series : undefined;
}

/**
 * The rate a series holds for one funding time. The replay loops its candles with growing timestamps, so a
 * time past the series is folded back into it by the series' own span (whole funding periods).
 */
export function rateOf(series: RateSeries, fundingTimeMs: number): number | undefined {
  const first = series.timeMs[0] as number;
  const last = series.timeMs.at(-1) as number;
  const span = Math.max(EIGHT_HOURS_MS, Math.round((last - first) / EIGHT_HOURS_MS + 1) * EIGHT_HOURS_MS);
  let t = fundingTimeMs;
  if (t > last + JITTER_MS) t = first + ((t - first) % span);
  // The record of this funding time: the last one at or before it, no older than one period.
  let lo = 0;
  let hi = series.timeMs.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((series.timeMs[mid] as number) <= t + JITTER_MS) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0 || t - (series.timeMs[found] as number) >= EIGHT_HOURS_MS - JITTER_MS) return undefined;
  return series.rate[found];
}

/**
 * The replay feed's rates: `binance-futures-<SYMBOL>-funding-8h-….csv[.gz]` files of `dir` (the first file in
 * name order per symbol). Symbols without a file fund at `fallbackRate` when one is given.
 */
export async function replayFundingRates(dir: string, fallbackRate?: number): Promise<FundingRates> {
  const bySymbol = new Map<string, RateSeries>();
  const names = (await readdir(dir).catch(() => [] as string[])).sort();
  for (const name of names) {
    const match = /futures-([A-Z0-9]+)-funding-8h-.*\.csv(\.gz)?$/i.exec(name);
    const symbol = match?.[1]?.toUpperCase();
    if (!symbol || bySymbol.has(symbol)) continue;
    const raw = await readFile(join(dir, name));
    const series = parseFundingCsv((match?.[2] ? gunzipSync(raw) : raw).toString('utf8'));
    if (series) bySymbol.set(symbol, series);
  }
  return {
    rateAt(symbol, fundingTimeMs) {
      const series = bySymbol.get(symbol.toUpperCase());
      return series ? rateOf(series, fundingTimeMs) : fallbackRate;
    },
  };
}
