/**
 * Candle history for backtests (GET /api/candles with from and to), one reader per market source
 * (docs/architecture.md §1): the embedded default serves the real Binance candles that ship with the app
 * (fixtures/history, built by scripts/make-candle-history.ts) followed by the simulated market's own
 * recorded candles; replay mode reads its candle files. Readers return columns for from ≤ open time < to,
 * gaps left as the source had them; an empty result means the source has nothing for that pair and period.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  type CandleColumns,
  type CandleCoverageQuery,
  type CandleHistoryQuery,
  type CandleSpan,
  decodeCandles,
  type EncodedCandles,
  encodeCandles,
  HISTORY_INTERVAL_MS,
  type HistoryInterval,
  sliceCandles,
} from '@gridbot/shared';
import type { NumCandle } from '../feeds/candle-book';
import { aggregateCandles, listCandleFiles, matchingFiles, readCandleFile } from '../feeds/replay-files';
import type { Candle, MarketFeed } from '../market-feed';

export interface CandleHistory {
  readonly source: EncodedCandles['source'];
  /** The candles of the query, encoded (no candles: empty columns). */
  read(q: CandleHistoryQuery): Promise<EncodedCandles>;
  /** The periods with candles of a pair and interval, real Binance history first. */
  coverage(q: CandleCoverageQuery): Promise<CandleSpan[]>;
}

/** The period the columns cover, as one span (none when empty). */
function spanOf(cols: CandleColumns, interval: HistoryInterval, source: CandleSpan['source']): CandleSpan[] {
  const n = cols.openTimeMs.length;
  if (n === 0) return [];
  return [
    { fromMs: cols.openTimeMs[0]!, toMs: cols.openTimeMs[n - 1]! + HISTORY_INTERVAL_MS[interval], source },
  ];
}

const EMPTY: CandleColumns = {
  openTimeMs: new Float64Array(0),
  open: new Float64Array(0),
  high: new Float64Array(0),
  low: new Float64Array(0),
  close: new Float64Array(0),
};

function columnsOf(list: readonly NumCandle[]): CandleColumns {
  return {
    openTimeMs: Float64Array.from(list, (c) => c.openTimeMs),
    open: Float64Array.from(list, (c) => c.open),
    high: Float64Array.from(list, (c) => c.high),
    low: Float64Array.from(list, (c) => c.low),
    close: Float64Array.from(list, (c) => c.close),
  };
}

/** Several column sets in time order, each open time once (the first set that has it wins). */
export function mergeColumns(parts: readonly CandleColumns[]): CandleColumns {
  const rows = new Map<number, [number, number, number, number]>();
  for (const p of parts) {
    for (let i = 0; i < p.openTimeMs.length; i++) {
      const t = p.openTimeMs[i] as number;
      if (!rows.has(t)) rows.set(t, [p.open[i]!, p.high[i]!, p.low[i]!, p.close[i]!]);
    }
  }
  const times = [...rows.keys()].sort((a, b) => a - b);
  const list = times.map((t) => {
    const [open, high, low, close] = rows.get(t)!;
    return { openTimeMs: t, open, high, low, close, volume: 0 };
  });
  return list.length === 0 ? EMPTY : columnsOf(list);
}

function encode(cols: CandleColumns, q: CandleHistoryQuery, source: EncodedCandles['source']) {
  return encodeCandles(sliceCandles(cols, q.from, q.to), {
    symbol: q.symbol,
    category: q.category,
    interval: q.interval,
    source,
  });
}

/**
 * The embedded default: the shipped hourly Binance candles of the spot pair (futures follow spot, as the
 * simulated market prices them alike), then the simulated market's recorded candles of the interval.
 */
export function embeddedHistory(
  dir: string,
  feed: Pick<MarketFeed, 'candles'>,
  now: () => number = Date.now,
): CandleHistory {
  const shipped = new Map<string, Promise<CandleColumns>>();
  const shippedOf = (symbol: string) => {
    let p = shipped.get(symbol);
    if (!p) {
      p = readFile(join(dir, `binance-spot-${symbol}-1h.json.gz`)).then(
        (buf) => decodeCandles(JSON.parse(gunzipSync(buf).toString('utf8')) as EncodedCandles),
        () => EMPTY,
      );
      shipped.set(symbol, p);
    }
    return p;
  };
  // The last recorded candle is still forming: a backtest takes closed candles only.
  const recordedOf = async (q: CandleCoverageQuery, beforeMs: number) => {
    const recorded = await feed.candles(q.symbol, q.category, q.interval, 1000).catch(() => [] as Candle[]);
    const size = HISTORY_INTERVAL_MS[q.interval];
    return columnsOf(recorded.filter((c) => c.openTimeMs + size <= beforeMs).map(numCandle));
  };
  return {
    source: 'embedded',
    async read(q) {
      const parts: CandleColumns[] = [];
      if (q.interval === '1h') parts.push(await shippedOf(q.symbol));
      parts.push(await recordedOf(q, q.to));
      return encode(mergeColumns(parts), q, 'embedded');
    },
    async coverage(q) {
      const shippedSpan = q.interval === '1h' ? spanOf(await shippedOf(q.symbol), '1h', 'embedded') : [];
      return [...shippedSpan, ...spanOf(await recordedOf(q, now()), q.interval, 'sim')];
    },
  };
}

function numCandle(c: Candle): NumCandle {
  return {
    openTimeMs: c.openTimeMs,
    open: Number(c.open),
    high: Number(c.high),
    low: Number(c.low),
    close: Number(c.close),
    volume: Number(c.volume),
  };
}

/**
 * Replay mode: the candle files of MARKET_REPLAY_DIR for the pair (futures without a file follow the spot
 * pair, as the replay feed does). Files of the interval are used as they are, finer ones are merged into it;
 * coarser ones cannot give it.
 */
export function replayHistory(dir: string): CandleHistory {
  const columns = async (q: CandleCoverageQuery) => {
    const names = await listCandleFiles(dir);
    let files = matchingFiles(names, q.symbol, q.category);
    if (files.length === 0 && q.category === 'future') files = matchingFiles(names, q.symbol, 'spot');
    const size = HISTORY_INTERVAL_MS[q.interval];
    const parts: CandleColumns[] = [];
    for (const name of files) {
      const file = await readCandleFile(dir, name);
      if (file.intervalMs > size || size % file.intervalMs !== 0) continue;
      const list = file.intervalMs === size ? file.candles : aggregateCandles(file.candles, size);
      parts.push(columnsOf(list));
    }
    return mergeColumns(parts);
  };
  return {
    source: 'replay',
    read: async (q) => encode(await columns(q), q, 'replay'),
    coverage: async (q) => spanOf(await columns(q), q.interval, 'replay'),
  };
}
