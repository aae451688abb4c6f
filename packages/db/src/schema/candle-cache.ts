import { bigint, doublePrecision, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Binance candles fetched for backtests (GET /api/candles with from and to in Binance mode), so that each
 * candle is fetched from Binance once. Prices are the numbers Binance sent (a backtest compares them as
 * numbers, docs/trading-rules.md §2.5). Only closed candles are stored.
 */
export const candleCache = pgTable(
  'candle_cache',
  {
    category: text('category').notNull(),
    symbol: text('symbol').notNull(),
    interval: text('interval').notNull(),
    openTimeMs: bigint('open_time_ms', { mode: 'number' }).notNull(),
    open: doublePrecision('open').notNull(),
    high: doublePrecision('high').notNull(),
    low: doublePrecision('low').notNull(),
    close: doublePrecision('close').notNull(),
  },
  (t) => [primaryKey({ columns: [t.category, t.symbol, t.interval, t.openTimeMs] })],
);

/**
 * The periods already fetched per pair and interval (from ≤ open time < to): a period Binance had no candles
 * in (a gap, before a listing) is covered too, so it is not asked for again.
 */
export const candleCacheSpans = pgTable(
  'candle_cache_spans',
  {
    category: text('category').notNull(),
    symbol: text('symbol').notNull(),
    interval: text('interval').notNull(),
    fromMs: bigint('from_ms', { mode: 'number' }).notNull(),
    toMs: bigint('to_ms', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.category, t.symbol, t.interval, t.fromMs] })],
);
