/**
 * Candle history for backtests in the browser (docs/product.md, Backtest): the query of
 * `GET /api/candles?symbol&category&interval&from&to`, its messages, and the compact columnar encoding the
 * server sends and the browser decodes.
 *
 * Encoding: prices become integers in units of 10^-decimals (exact for prices Binance quotes), and each
 * column holds small numbers that repeat — the time step in intervals (1 unless there is a gap), the open
 * against the previous close (0 on a continuous market), the close against the open, and how far the high
 * and low stick out of the body. JSON arrays of such numbers compress about tenfold with gzip, which the
 * server applies to every response.
 */
import { z } from 'zod';
import { pairField } from '../wallet/wallet.schema';

export const HISTORY_INTERVALS = ['1m', '15m', '1h'] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];
export const HISTORY_INTERVAL_MS: Record<HistoryInterval, number> = {
  '1m': 60_000,
  '15m': 900_000,
  '1h': 3_600_000,
};
/** Longest period one request may ask for: 200,000 candles of its interval (a year of 1-minute candles is 525,600). */
export const MAX_HISTORY_CANDLES = 200_000;

export const candleHistoryMessages = {
  intervalInvalid: 'Choose an interval of 1m, 15m or 1h.',
  periodInvalid: 'The period must end after it starts.',
  periodTooLong: `The period is too long: at most ${MAX_HISTORY_CANDLES.toLocaleString('en-US')} candles per request.`,
  /** Shown in the backtest panel when the source has nothing for the pair and period. */
  noCandles: (symbol: string, interval: string) =>
    `No ${interval} price history for ${symbol} in this period. Choose another pair, interval or period.`,
} as const;

const msField = z.coerce.number().int().nonnegative();

/** The query of GET /api/candles when it asks for history (from and to, Unix ms, from ≤ open time < to). */
export const candleHistoryQuerySchema = z
  .object({
    symbol: pairField,
    category: z.enum(['spot', 'future']).default('spot'),
    interval: z.enum(HISTORY_INTERVALS, { error: candleHistoryMessages.intervalInvalid }),
    from: msField,
    to: msField,
  })
  .refine((q) => q.to > q.from, { message: candleHistoryMessages.periodInvalid, path: ['to'] })
  .refine((q) => (q.to - q.from) / HISTORY_INTERVAL_MS[q.interval] <= MAX_HISTORY_CANDLES, {
    message: candleHistoryMessages.periodTooLong,
    path: ['from'],
  });
export type CandleHistoryQuery = z.infer<typeof candleHistoryQuerySchema>;

/** GET /api/candles/coverage?symbol&category&interval: the periods a source has candles for. */
export const candleCoverageQuerySchema = z.object({
  symbol: pairField,
  category: z.enum(['spot', 'future']).default('spot'),
  interval: z.enum(HISTORY_INTERVALS, { error: candleHistoryMessages.intervalInvalid }),
});
export type CandleCoverageQuery = z.infer<typeof candleCoverageQuerySchema>;

/** A period with candles (from ≤ open time < to), real Binance history first. */
export interface CandleSpan {
  fromMs: number;
  toMs: number;
  source: EncodedCandles['source'] | 'sim';
}

/** Candles as columns, ascending open time (the engine's `Candles` has this shape). */
export interface CandleColumns {
  openTimeMs: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
}

/** The wire form of candle history (see the file comment). */
export interface EncodedCandles {
  symbol: string;
  category: 'spot' | 'future';
  interval: HistoryInterval;
  /** Where the candles came from: the shipped set (and the simulated market's record), replay files or Binance. */
  source: 'embedded' | 'replay' | 'binance';
  /** Price unit is 10^-decimals. */
  decimals: number;
  /** Open time of the first candle (Unix ms); absent when there are none. */
  startMs: number | null;
  /** Open time minus the previous one, in intervals. */
  dt: number[];
  /** Open minus the previous close (the first: the open itself), in price units. */
  o: number[];
  /** Close minus open. */
  c: number[];
  /** High minus max(open, close). */
  h: number[];
  /** min(open, close) minus low. */
  l: number[];
  /**
   * Futures only: the funding rates of the period (docs/trading-rules.md §2.2), booked by the backtest as the
   * backtest CLI books those of its `--funding` file. Absent for spot.
   */
  funding?: FundingSeries;
}

/** Funding times (Unix ms, ascending, within the candles' period) and their rates (fraction per 8 h). */
export interface FundingSeries {
  timeMs: number[];
  rate: number[];
}

/** Decimals that hold every price exactly (at most 8, Binance's finest tick). */
export function priceDecimals(cols: CandleColumns): number {
  let d = 0;
  const fits = (x: number) => Math.abs(Math.round(x * 10 ** d) / 10 ** d - x) <= Math.abs(x) * 1e-12;
  const prices = [cols.open, cols.high, cols.low, cols.close];
  for (const col of prices) {
    for (let i = 0; i < col.length; i++) {
      const x = col[i] as number;
      while (d < 8 && !fits(x)) d += 1;
    }
  }
  return d;
}

export function encodeCandles(
  cols: CandleColumns,
  meta: Pick<EncodedCandles, 'symbol' | 'category' | 'interval' | 'source'>,
): EncodedCandles {
  const n = cols.openTimeMs.length;
  const decimals = priceDecimals(cols);
  const scale = 10 ** decimals;
  const step = HISTORY_INTERVAL_MS[meta.interval];
  const units = (x: number) => Math.round(x * scale);
  const out: EncodedCandles = {
    ...meta,
    decimals,
    startMs: n > 0 ? (cols.openTimeMs[0] as number) : null,
    dt: new Array(n),
    o: new Array(n),
    c: new Array(n),
    h: new Array(n),
    l: new Array(n),
  };
  let prevClose = 0;
  let prevTime = n > 0 ? (cols.openTimeMs[0] as number) : 0;
  for (let i = 0; i < n; i++) {
    const t = cols.openTimeMs[i] as number;
    const o = units(cols.open[i] as number);
    const cl = units(cols.close[i] as number);
    out.dt[i] = Math.round((t - prevTime) / step);
    out.o[i] = o - prevClose;
    out.c[i] = cl - o;
    out.h[i] = units(cols.high[i] as number) - Math.max(o, cl);
    out.l[i] = Math.min(o, cl) - units(cols.low[i] as number);
    prevClose = cl;
    prevTime = t;
  }
  return out;
}

export function decodeCandles(e: EncodedCandles): CandleColumns {
  const n = e.dt.length;
  const scale = 10 ** e.decimals;
  const step = HISTORY_INTERVAL_MS[e.interval];
  const cols: CandleColumns = emptyCandles(n);
  let t = e.startMs ?? 0;
  let prevClose = 0;
  // Dividing by the scale (rather than multiplying by its inverse) gives back the very decimal numbers parsed from CSV.
  const price = (units: number) => Number((units / scale).toFixed(e.decimals));
  for (let i = 0; i < n; i++) {
    t += (e.dt[i] as number) * step;
    const o = prevClose + (e.o[i] as number);
    const cl = o + (e.c[i] as number);
    cols.openTimeMs[i] = t;
    cols.open[i] = price(o);
    cols.close[i] = price(cl);
    cols.high[i] = price(Math.max(o, cl) + (e.h[i] as number));
    cols.low[i] = price(Math.min(o, cl) - (e.l[i] as number));
    prevClose = cl;
  }
  return cols;
}

/** Columns of the candles with from ≤ open time < to. */
export function sliceCandles(cols: CandleColumns, fromMs: number, toMs: number): CandleColumns {
  const t = cols.openTimeMs;
  let a = 0;
  while (a < t.length && (t[a] as number) < fromMs) a += 1;
  let b = a;
  while (b < t.length && (t[b] as number) < toMs) b += 1;
  return candlesAt(cols, a, b);
}

/** Columns for `n` candles, every value 0, to fill in. */
export function emptyCandles(n: number): CandleColumns {
  return {
    openTimeMs: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
  };
}

/** Columns of the candles at indexes a ≤ i < b: views of the same arrays, nothing copied. */
export function candlesAt(cols: CandleColumns, a: number, b: number): CandleColumns {
  return {
    openTimeMs: cols.openTimeMs.subarray(a, b),
    open: cols.open.subarray(a, b),
    high: cols.high.subarray(a, b),
    low: cols.low.subarray(a, b),
    close: cols.close.subarray(a, b),
  };
}
