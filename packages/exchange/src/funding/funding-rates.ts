/**
 * Funding rates of USDT-M perpetuals (docs/trading-rules.md §2.2), for both of their readers: paper futures ask
 * the rate of one funding time (`FundingRates`), futures backtests the rates of a period (`FundingHistory`,
 * sent with the candles of GET /api/candles). Both read the same sources under the same rules:
 * - the replay's `binance-futures-<SYMBOL>-funding-8h-….csv[.gz]` files (`funding_time_ms,funding_rate` rows,
 *   Binance's published times a few ms after the hour), all of a symbol's files merged, each time once;
 * - the real Binance rates that ship with the app (fixtures/history/binance-futures-funding.json.gz, built by
 *   scripts/make-candle-history.ts);
 * - the configured paper rate (`MARKET_FUNDING_PCT`, a fraction per 8 h here) at every funding time a symbol's
 *   recorded rates do not give.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  FUNDING_INTERVAL_MS,
  FUNDING_JITTER_MS,
  type FundingSeries,
  findMarketRules,
  fundingIntervalMs,
  parseFundingCsv,
} from '@gridbot/shared';
import { readMarketFile } from '../feeds/replay-files';

/** The funding rate (a fraction per funding interval) of a symbol at a funding time, or undefined when none is known. */
export interface FundingRates {
  rateAt(symbol: string, fundingTimeMs: number): number | undefined;
}

export interface FundingQuery {
  symbol: string;
  from: number;
  to: number;
}

/** Rates of the funding times with from ≤ time < to, ascending. */
export interface FundingHistory {
  read(q: FundingQuery): Promise<FundingSeries>;
}

/** A replay funding file; the first group is the symbol. */
const FUNDING_FILE = /^binance-futures-([A-Z0-9]+)-funding-8h-.*\.csv(\.gz)?$/i;
/** The shipped rates' file, beside the shipped candles. */
export const SHIPPED_FUNDING_FILE = 'binance-futures-funding.json.gz';

const NONE: FundingSeries = { timeMs: [], rate: [] };

/**
 * The funding files of a replay directory (of `symbol` alone when given), per symbol: every file of the symbol
 * in name order, merged, a time given twice keeping its first file's rate. Symbols without a rate are absent.
 */
export async function readReplayFunding(dir: string, symbol?: string): Promise<Map<string, FundingSeries>> {
  const byTime = new Map<string, Map<number, number>>();
  const names = (await readdir(dir).catch(() => [] as string[])).sort();
  for (const name of names) {
    const match = FUNDING_FILE.exec(name);
    const fileSymbol = match?.[1]?.toUpperCase();
    if (!fileSymbol || (symbol !== undefined && fileSymbol !== symbol.toUpperCase())) continue;
    const path = join(dir, name);
    const series = parseFundingCsv(path, await readMarketFile(path));
    if (series.timeMs.length === 0) continue;
    const rates = byTime.get(fileSymbol) ?? new Map<number, number>();
    series.timeMs.forEach((t, i) => {
      if (!rates.has(t)) rates.set(t, series.rate[i] as number);
    });
    byTime.set(fileSymbol, rates);
  }
  const out = new Map<string, FundingSeries>();
  for (const [sym, rates] of byTime) {
    const times = [...rates.keys()].sort((a, b) => a - b);
    out.set(sym, { timeMs: times, rate: times.map((t) => rates.get(t) as number) });
  }
  return out;
}

/** The rates of funding times in [from, to). */
export function sliceFunding(s: FundingSeries, from: number, to: number): FundingSeries {
  const out: FundingSeries = { timeMs: [], rate: [] };
  for (let i = 0; i < s.timeMs.length; i++) {
    const t = s.timeMs[i] as number;
    if (t >= from && t < to) {
      out.timeMs.push(t);
      out.rate.push(s.rate[i] as number);
    }
  }
  return out;
}

/** The funding interval of a futures symbol, from the market rules (8 h where they do not say). */
function periodOf(symbol: string): number {
  return fundingIntervalMs(findMarketRules(symbol, 'future'));
}

/** `rate` at every funding time of the symbol in [from, to). */
function everyFundingTime(q: FundingQuery, rate: number): FundingSeries {
  const out: FundingSeries = { timeMs: [], rate: [] };
  const period = periodOf(q.symbol);
  for (let t = Math.ceil(q.from / period) * period; t < q.to; t += period) {
    out.timeMs.push(t);
    out.rate.push(rate);
  }
  return out;
}

/**
 * The rate a series holds for one funding time (a non-empty series) of a symbol funding every `period` ms. The
 * replay loops its candles with growing timestamps, so a time past the series is folded back into it by the
 * series' own span (whole funding periods).
 */
export function rateOf(
  series: FundingSeries,
  fundingTimeMs: number,
  period = FUNDING_INTERVAL_MS,
): number | undefined {
  const first = series.timeMs[0] as number;
  const last = series.timeMs.at(-1) as number;
  const span = Math.max(period, Math.round((last - first) / period + 1) * period);
  let t = fundingTimeMs;
  if (t > last + FUNDING_JITTER_MS) t = first + ((t - first) % span);
  // The record of this funding time: the last one at or before it, no older than one period.
  let lo = 0;
  let hi = series.timeMs.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((series.timeMs[mid] as number) <= t + FUNDING_JITTER_MS) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0 || t - (series.timeMs[found] as number) >= period - FUNDING_JITTER_MS) return undefined;
  return series.rate[found];
}

/** Paper futures on the simulated market: every symbol funds at `rate` (Binance's base rate is 0.0001). */
export function constantFundingRates(rate: number): FundingRates {
  return { rateAt: () => rate };
}

/**
 * Paper futures on the replay: the rates of its funding files (read once), following the replay's loop;
 * symbols without a file fund at `fallbackRate` when one is given.
 */
export async function replayFundingRates(dir: string, fallbackRate?: number): Promise<FundingRates> {
  const bySymbol = await readReplayFunding(dir);
  return {
    rateAt(symbol, fundingTimeMs) {
      const series = bySymbol.get(symbol.toUpperCase());
      return series ? rateOf(series, fundingTimeMs, periodOf(symbol)) : fallbackRate;
    },
  };
}

/**
 * Backtests on the embedded default: the shipped Binance rates of the pair inside the period they cover (first
 * to last funding time, one period beyond); elsewhere `paperRate` at every funding time, or nothing when no
 * paper rate is configured.
 */
export function embeddedFunding(dir: string, paperRate: number | null): FundingHistory {
  let shipped: Promise<Record<string, FundingSeries>> | undefined;
  const shippedOf = async (symbol: string) => {
    shipped ??= readFile(join(dir, SHIPPED_FUNDING_FILE)).then(
      (buf) => JSON.parse(gunzipSync(buf).toString('utf8')) as Record<string, FundingSeries>,
      () => ({}),
    );
    return (await shipped)[symbol] ?? NONE;
  };
  return {
    async read(q) {
      const real = await shippedOf(q.symbol);
      const n = real.timeMs.length;
      const period = periodOf(q.symbol);
      const realFrom = n > 0 ? (real.timeMs[0] as number) : Number.POSITIVE_INFINITY;
      const realTo = n > 0 ? (real.timeMs[n - 1] as number) + period : Number.NEGATIVE_INFINITY;
      const out = sliceFunding(real, q.from, q.to);
      if (paperRate === null) return out;
      const merged: [number, number][] = out.timeMs.map((t, i) => [t, out.rate[i] as number]);
      for (const t of everyFundingTime(q, paperRate).timeMs) {
        // Binance's published times fall a few ms after the hour: a time inside the shipped span is theirs.
        if (t >= realFrom - period / 2 && t < realTo) continue;
        merged.push([t, paperRate]);
      }
      merged.sort((a, b) => a[0] - b[0]);
      return { timeMs: merged.map((m) => m[0]), rate: merged.map((m) => m[1]) };
    },
  };
}

/**
 * Backtests in replay mode: the pair's funding files of the replay directory (read at each request), cut to the
 * period. A pair without a file funds at `paperRate` (as the replay's paper futures do), or not at all without
 * one.
 */
export function replayFunding(dir: string, paperRate: number | null = null): FundingHistory {
  return {
    async read(q) {
      const series = (await readReplayFunding(dir, q.symbol)).get(q.symbol.toUpperCase());
      if (!series) return paperRate === null ? NONE : everyFundingTime(q, paperRate);
      return sliceFunding(series, q.from, q.to);
    },
  };
}
