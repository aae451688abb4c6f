/**
 * Candle history in Binance mode (GET /api/candles with from and to): klines fetched from Binance once and
 * kept in the database (candle_cache), with the periods already fetched (candle_cache_spans) so that a gap
 * in Binance's data is not asked for again either. Only closed candles are fetched and kept.
 */

import type { Db } from '@gridbot/db';
import type { CandleHistory, NumCandle } from '@gridbot/exchange';
import { type CandleColumns, encodeCandles, HISTORY_INTERVAL_MS, MAX_HISTORY_CANDLES } from '@gridbot/shared';
import { cacheCandles, cachedCandles, cachedSpans } from './candle-cache.repo';

export interface KlineSource {
  fetch(
    symbol: string,
    market: 'spot' | 'future',
    interval: '1m' | '15m' | '1h',
    fromMs: number,
    toMs: number,
  ): Promise<NumCandle[]>;
}

/** Parts of [from, to) no span covers, in order. */
export function missingRanges(
  spans: readonly { fromMs: number; toMs: number }[],
  from: number,
  to: number,
): [number, number][] {
  const out: [number, number][] = [];
  let cur = from;
  for (const s of [...spans].sort((a, b) => a.fromMs - b.fromMs)) {
    if (s.toMs <= cur) continue;
    if (s.fromMs >= to) break;
    if (s.fromMs > cur) out.push([cur, s.fromMs]);
    cur = Math.max(cur, s.toMs);
    if (cur >= to) break;
  }
  if (cur < to) out.push([cur, to]);
  return out;
}

export function binanceHistory(db: Db, klines: KlineSource, now: () => number): CandleHistory {
  // One fetch per pair and interval at a time, so two requests for the same period fetch it once.
  const locks = new Map<string, Promise<unknown>>();
  const serial = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const run = (locks.get(key) ?? Promise.resolve()).then(work, work);
    locks.set(
      key,
      run.catch(() => undefined),
    );
    return run;
  };

  return {
    source: 'binance',
    // Binance has years of klines for every pair: offer the most recent closed candles; the pair's listing
    // date bounds what a long period finds.
    async coverage(q) {
      const size = HISTORY_INTERVAL_MS[q.interval];
      const toMs = Math.floor(now() / size) * size;
      return [{ fromMs: toMs - MAX_HISTORY_CANDLES * size, toMs, source: 'binance' as const }];
    },
    async read(q) {
      const size = HISTORY_INTERVAL_MS[q.interval];
      const closedTo = Math.min(q.to, Math.floor(now() / size) * size);
      if (closedTo > q.from) {
        await serial(`${q.category}:${q.symbol}:${q.interval}`, async () => {
          const spans = await cachedSpans(db, q);
          for (const [a, b] of missingRanges(spans, q.from, closedTo)) {
            await cacheCandles(db, q, await klines.fetch(q.symbol, q.category, q.interval, a, b), a, b);
          }
        });
      }
      const rows = await cachedCandles(db, q, q.from, q.to);
      const cols: CandleColumns = {
        openTimeMs: Float64Array.from(rows, (r) => r.openTimeMs),
        open: Float64Array.from(rows, (r) => r.open),
        high: Float64Array.from(rows, (r) => r.high),
        low: Float64Array.from(rows, (r) => r.low),
        close: Float64Array.from(rows, (r) => r.close),
      };
      return encodeCandles(cols, {
        symbol: q.symbol,
        category: q.category,
        interval: q.interval,
        source: 'binance',
      });
    },
  };
}
