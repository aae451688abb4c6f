/**
 * Funding-rate history of USDT-M perpetuals for futures backtests (sent with the candles of GET /api/candles),
 * one reader per market source like the candle history: the embedded default serves the real Binance rates
 * that ship with the app (fixtures/history/binance-futures-funding.json.gz, built by
 * scripts/make-candle-history.ts) and, where they do not reach, the simulated market's configured paper rate
 * at every funding time; replay mode reads the funding-rate files beside its candles. Readers return the rates
 * of funding times with from ≤ time < to, ascending.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FundingSeries } from '@gridbot/shared';

export interface FundingQuery {
  symbol: string;
  from: number;
  to: number;
}

export interface FundingHistory {
  read(q: FundingQuery): Promise<FundingSeries>;
}

const FUNDING_HEADER = 'funding_time_ms,funding_rate';
/** Binance funds USDT-M perpetuals every 8 hours, at 00:00, 08:00 and 16:00 UTC. */
export const FUNDING_PERIOD_MS = 8 * 3_600_000;
/** The shipped rates' file, beside the shipped candles. */
export const SHIPPED_FUNDING_FILE = 'binance-futures-funding.json.gz';

const NONE: FundingSeries = { timeMs: [], rate: [] };

/** Parses `funding_time_ms,funding_rate` rows; undefined when the header is another one. */
export function parseFundingCsv(text: string): FundingSeries | undefined {
  const lines = text.trim().split(/\r?\n/);
  if (lines[0]?.trim() !== FUNDING_HEADER) return undefined;
  const out: FundingSeries = { timeMs: [], rate: [] };
  for (const line of lines.slice(1)) {
    const [t, r] = line.split(',').map(Number) as [number, number];
    if (!Number.isFinite(t) || !Number.isFinite(r)) continue;
    out.timeMs.push(t);
    out.rate.push(r);
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

/**
 * The embedded default: the shipped Binance rates of the pair inside the period they cover (first to last
 * funding time, one period beyond); elsewhere `paperRate` (a fraction per 8 h, the simulated market's rate)
 * at every funding time, or nothing when no paper rate is configured.
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
      const realFrom = n > 0 ? (real.timeMs[0] as number) : Number.POSITIVE_INFINITY;
      const realTo = n > 0 ? (real.timeMs[n - 1] as number) + FUNDING_PERIOD_MS : Number.NEGATIVE_INFINITY;
      const out = sliceFunding(real, q.from, q.to);
      if (paperRate === null) return out;
      const merged: [number, number][] = out.timeMs.map((t, i) => [t, out.rate[i] as number]);
      for (const t of everyFundingTime(q, paperRate).timeMs) {
        // Binance's published times fall a few ms after the hour: a time inside the shipped span is theirs.
        if (t >= realFrom - FUNDING_PERIOD_MS / 2 && t < realTo) continue;
        merged.push([t, paperRate]);
      }
      merged.sort((a, b) => a[0] - b[0]);
      return { timeMs: merged.map((m) => m[0]), rate: merged.map((m) => m[1]) };
    },
  };
}

/** `rate` at every funding time in [from, to). */
function everyFundingTime(q: FundingQuery, rate: number): FundingSeries {
  const out: FundingSeries = { timeMs: [], rate: [] };
  for (let t = Math.ceil(q.from / FUNDING_PERIOD_MS) * FUNDING_PERIOD_MS; t < q.to; t += FUNDING_PERIOD_MS) {
    out.timeMs.push(t);
    out.rate.push(rate);
  }
  return out;
}

/**
 * Replay mode: the `binance-futures-<SYMBOL>-funding-8h-….csv[.gz]` files of the replay directory, merged
 * (each funding time once). A pair without a file funds at `paperRate` (as the replay's paper futures do), or
 * not at all without one.
 */
export function replayFunding(dir: string, paperRate: number | null = null): FundingHistory {
  return {
    async read(q) {
      const names = (await readdir(dir).catch(() => [] as string[])).sort();
      const byTime = new Map<number, number>();
      for (const name of names) {
        const m = /^binance-futures-([A-Z0-9]+)-funding-8h-.*\.csv(\.gz)?$/.exec(name);
        if (m?.[1] !== q.symbol) continue;
        const raw = await readFile(join(dir, name));
        const series = parseFundingCsv((m[2] ? gunzipSync(raw) : raw).toString('utf8'));
        if (!series) continue;
        series.timeMs.forEach((t, i) => {
          if (!byTime.has(t)) byTime.set(t, series.rate[i] as number);
        });
      }
      if (byTime.size === 0) return paperRate === null ? NONE : everyFundingTime(q, paperRate);
      const times = [...byTime.keys()].sort((a, b) => a - b);
      return sliceFunding({ timeMs: times, rate: times.map((t) => byTime.get(t) as number) }, q.from, q.to);
    },
  };
}
