import { candleCache, candleCacheSpans, type Db } from '@gridbot/db';
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';

/** One pair's candles of one interval. */
export interface CandleSeries {
  category: string;
  symbol: string;
  interval: string;
}

type Candle = Pick<typeof candleCache.$inferInsert, 'openTimeMs' | 'open' | 'high' | 'low' | 'close'>;

/** Rows per INSERT (8 parameters a row, well under PostgreSQL's 65,535). */
const INSERT_CHUNK = 2000;

const ofSeries = (s: CandleSeries) =>
  and(
    eq(candleCache.category, s.category),
    eq(candleCache.symbol, s.symbol),
    eq(candleCache.interval, s.interval),
  );

/** The periods of the series already fetched. */
export async function cachedSpans(db: Db, s: CandleSeries): Promise<{ fromMs: number; toMs: number }[]> {
  return db
    .select({ fromMs: candleCacheSpans.fromMs, toMs: candleCacheSpans.toMs })
    .from(candleCacheSpans)
    .where(
      and(
        eq(candleCacheSpans.category, s.category),
        eq(candleCacheSpans.symbol, s.symbol),
        eq(candleCacheSpans.interval, s.interval),
      ),
    );
}

/** Keeps the candles fetched for [fromMs, toMs) and marks the period fetched, together. */
export async function cacheCandles(
  db: Db,
  s: CandleSeries,
  candles: readonly Candle[],
  fromMs: number,
  toMs: number,
): Promise<void> {
  const rows = candles.map((c) => ({
    category: s.category,
    symbol: s.symbol,
    interval: s.interval,
    openTimeMs: c.openTimeMs,
    open: c.open,
    high: c.high,
    low: c.low,
    close: c.close,
  }));
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await tx
        .insert(candleCache)
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflictDoNothing();
    }
    await tx
      .insert(candleCacheSpans)
      .values({ category: s.category, symbol: s.symbol, interval: s.interval, fromMs, toMs })
      .onConflictDoUpdate({
        target: [
          candleCacheSpans.category,
          candleCacheSpans.symbol,
          candleCacheSpans.interval,
          candleCacheSpans.fromMs,
        ],
        set: { toMs: sql`greatest(${candleCacheSpans.toMs}, excluded.to_ms)` },
      });
  });
}

/** The cached candles of the series opening in [fromMs, toMs), oldest first. */
export async function cachedCandles(db: Db, s: CandleSeries, fromMs: number, toMs: number) {
  return db
    .select()
    .from(candleCache)
    .where(and(ofSeries(s), gte(candleCache.openTimeMs, fromMs), lt(candleCache.openTimeMs, toMs)))
    .orderBy(asc(candleCache.openTimeMs));
}
