/**
 * The market-data port (docs/architecture.md §1): ticks to any number of in-process subscribers, last prices,
 * 24 h change and candles for charts. Implemented by the sim, replay and Binance feeds.
 */
import type { MarketKind } from '@gridbot/shared';

/** One observed price (docs/trading-rules.md §2). `price` is a decimal string rounded to the market's tick size. */
export interface Tick {
  symbol: string;
  market: MarketKind;
  price: string;
  /**
   * Futures: the mark price, when the feed publishes one (Binance liquidates and funds on it, docs/trading-rules.md
   * §2.2); absent: the price stands in for it (the simulated market's mark is its last price).
   */
  markPrice?: string;
  /** Time of the price in ms (replay: the candle's historical time). */
  tsMs: number;
  /** `performance.now()`-style monotonic ms at which the feed emitted it (for latency measurements). */
  emittedAt: number;
}

/** Candle intervals charts may ask for. */
export const CANDLE_INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '1d'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

/** Length of each interval in ms. */
export const INTERVAL_MS: Readonly<Record<CandleInterval, number>> = {
  '1m': 60_000,
  '3m': 180_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};

export function isCandleInterval(value: string): value is CandleInterval {
  return (CANDLE_INTERVALS as readonly string[]).includes(value);
}

/** OHLCV candle; `openTimeMs` is the candle's open time. Prices are decimal strings. */
export interface Candle {
  openTimeMs: number;
  open: string;
  high: string;
  low: string;
  close: string;
  /** Base-asset volume. */
  volume: string;
}

export interface Ticker24h {
  symbol: string;
  market: MarketKind;
  lastPrice: string;
  /** Price change over 24 h in percent (1.2 means 1.2 %), two decimals. */
  changePct: string;
  openPrice: string;
  highPrice: string;
  lowPrice: string;
}

/** A subscriber. Returning a promise makes the feed coalesce: while it runs, only the latest tick waits. */
export type TickListener = (tick: Tick) => void | Promise<void>;

export interface MarketFeed {
  readonly kind: 'sim' | 'replay' | 'binance' | 'bybit' | 'okx';
  /** Symbols the feed serves (the 22 pairs, spot and futures). */
  symbols(): readonly string[];
  /**
   * Calls `listener` with every tick of the symbol until the returned function is called. A slow
   * listener never builds a queue: ticks arriving while its previous call is still pending replace
   * each other and only the latest is delivered when it finishes.
   */
  subscribe(symbol: string, market: MarketKind, listener: TickListener): () => void;
  /** Latest price, or undefined before the first tick. */
  lastPrice(symbol: string, market: MarketKind): string | undefined;
  /** Latest price, waiting for the first tick (or a REST call on Binance) when none is known yet. */
  price(symbol: string, market: MarketKind): Promise<string>;
  ticker24h(symbol: string, market: MarketKind): Promise<Ticker24h>;
  /** Up to `limit` most recent candles, oldest first; the last one may still be forming. */
  candles(symbol: string, market: MarketKind, interval: CandleInterval, limit: number): Promise<Candle[]>;
  /** Starts producing ticks (idempotent). */
  start(): Promise<void>;
  /** Stops timers and sockets; subscriptions stay registered but receive nothing more. */
  stop(): Promise<void>;
}
