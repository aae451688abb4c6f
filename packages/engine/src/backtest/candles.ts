/**
 * Candles for backtests (docs/trading-rules.md §2.5): CSV with header `open_time_ms,open,high,low,close,volume`,
 * parsed from text (the CLI reads and un-gzips the file; the engine does no I/O).
 */
export const CANDLE_HEADER = 'open_time_ms,open,high,low,close,volume';

/** Column arrays, one entry per candle, ascending open time. */
export interface Candles {
  openTimeMs: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
}

/** A problem with the candle text, with the 1-based line it is on. */
export class CandleFormatError extends Error {
  override readonly name = 'CandleFormatError';
}

/** Parses candle CSV text; throws `CandleFormatError` naming the first bad line. */
export function parseCandlesCsv(text: string): Candles {
  const lines = text.split('\n');
  const header = (lines[0] ?? '').trim();
  if (header !== CANDLE_HEADER) {
    throw new CandleFormatError(`line 1: expected header "${CANDLE_HEADER}", got "${header.slice(0, 80)}"`);
  }
  let n = lines.length - 1;
  while (n > 0 && (lines[n] ?? '').trim() === '') n -= 1;
  const c: Candles = {
    openTimeMs: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const line = lines[i + 1] as string;
    const f = line.split(',');
    if (f.length !== 6) throw new CandleFormatError(`line ${i + 2}: expected 6 fields, got ${f.length}`);
    const t = Number(f[0]);
    const o = Number(f[1]);
    const h = Number(f[2]);
    const l = Number(f[3]);
    const cl = Number(f[4]);
    if (![t, o, h, l, cl, Number(f[5])].every(Number.isFinite) || o <= 0 || l <= 0) {
      throw new CandleFormatError(`line ${i + 2}: not a valid candle: "${line.slice(0, 80)}"`);
    }
    if (h < Math.max(o, cl, l) || l > Math.min(o, cl)) {
      throw new CandleFormatError(`line ${i + 2}: high/low do not enclose open/close`);
    }
    if (i > 0 && t <= (c.openTimeMs[i - 1] as number)) {
      throw new CandleFormatError(`line ${i + 2}: open_time_ms ${t} is not after the previous candle`);
    }
    c.openTimeMs[i] = t;
    c.open[i] = o;
    c.high[i] = h;
    c.low[i] = l;
    c.close[i] = cl;
  }
  if (n === 0) throw new CandleFormatError('no candles after the header');
  return c;
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
 * Candles from parsed columns, checked as `parseCandlesCsv` checks text (rows are 0-based; the error
 * names the file line, the header being line 1).
 */
export function candlesFromColumns(
  t: Float64Array,
  o: Float64Array,
  h: Float64Array,
  l: Float64Array,
  cl: Float64Array,
): Candles {
  const n = t.length;
  if (n === 0) throw new CandleFormatError('no candles after the header');
  let prev = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const ti = t[i] as number;
    const oi = o[i] as number;
    const hi = h[i] as number;
    const li = l[i] as number;
    const ci = cl[i] as number;
    if (!(oi > 0 && li > 0 && Number.isFinite(hi) && Number.isFinite(ti) && Number.isFinite(ci))) {
      throw new CandleFormatError(`line ${i + 2}: not a valid candle`);
    }
    if (hi < oi || hi < ci || hi < li || li > oi || li > ci) {
      throw new CandleFormatError(`line ${i + 2}: high/low do not enclose open/close`);
    }
    if (ti <= prev)
      throw new CandleFormatError(`line ${i + 2}: open_time_ms ${ti} is not after the previous candle`);
    prev = ti;
  }
  return { openTimeMs: t, open: o, high: h, low: l, close: cl };
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
