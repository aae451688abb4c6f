/**
 * Candles for backtests (docs/trading-rules.md §2.5): CSV with header `open_time_ms,open,high,low,close,volume`,
 * read by the one strict reader of market files in @gridbot/shared (the CLI reads and un-gzips the file; the
 * engine does no I/O).
 */
import { parseCandleCsv } from '@gridbot/shared';

export { CANDLE_CSV_HEADER as CANDLE_HEADER } from '@gridbot/shared';

/** Column arrays, one entry per candle, ascending open time. */
export interface Candles {
  openTimeMs: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
}

/** Parses candle CSV text; throws `CsvFormatError` naming `file` and the first bad line. */
export function parseCandlesCsv(text: string, file = 'candles.csv'): Candles {
  return parseCandleCsv(file, text);
}

/**
 * The four ticks of candle `i` at its open time (docs/trading-rules.md §2.5): o, l, h, c when c ≥ o, else o, h, l, c.
 * Writes the prices into `out` (length 4) to keep the backtest loop allocation-free.
 */
export function candleTicks(c: Candles, i: number, out: Float64Array): void {
  const o = c.open[i] as number;
  const cl = c.close[i] as number;
  out[0] = o;
  out[1] = cl >= o ? (c.low[i] as number) : (c.high[i] as number);
  out[2] = cl >= o ? (c.high[i] as number) : (c.low[i] as number);
  out[3] = cl;
}

/**
 * Several candle sets joined in time order: sets sorted by their first candle, a candle kept only
 * when it opens after every candle kept before (overlapping files give each minute once), and only
 * those with `fromMs ≤ open time < toMs`.
 */
export function joinCandles(
  parts: readonly Candles[],
  fromMs = Number.NEGATIVE_INFINITY,
  toMs = Number.POSITIVE_INFINITY,
): Candles {
  const sorted = [...parts].sort((a, b) => (a.openTimeMs[0] ?? 0) - (b.openTimeMs[0] ?? 0));
  if (sorted.length === 1 && fromMs === Number.NEGATIVE_INFINITY && toMs === Number.POSITIVE_INFINITY) {
    return sorted[0] as Candles;
  }
  const total = sorted.reduce((s, c) => s + c.openTimeMs.length, 0);
  const out: Candles = {
    openTimeMs: new Float64Array(total),
    open: new Float64Array(total),
    high: new Float64Array(total),
    low: new Float64Array(total),
    close: new Float64Array(total),
  };
  let n = 0;
  let last = Number.NEGATIVE_INFINITY;
  for (const c of sorted) {
    for (let i = 0; i < c.openTimeMs.length; i++) {
      const t = c.openTimeMs[i] as number;
      if (t <= last || t < fromMs || t >= toMs) continue;
      out.openTimeMs[n] = t;
      out.open[n] = c.open[i] as number;
      out.high[n] = c.high[i] as number;
      out.low[n] = c.low[i] as number;
      out.close[n] = c.close[i] as number;
      n += 1;
      last = t;
    }
  }
  return {
    openTimeMs: out.openTimeMs.subarray(0, n),
    open: out.open.subarray(0, n),
    high: out.high.subarray(0, n),
    low: out.low.subarray(0, n),
    close: out.close.subarray(0, n),
  };
}
