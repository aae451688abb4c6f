import { type MarketKind, SYMBOLS } from '@gridbot/shared';
import type { MarketFeed } from '../market-feed';
import { type Clock, systemClock } from './clock';
import { FeedCore } from './feed-core';
import { SimModel } from './sim-model';

export interface SimFeedOptions {
  /** Seed of the price process; the same seed gives the same prices. Default 1. */
  seed?: number;
  /** Time between ticks of each pair. Default 1000 (one tick per second per pair, like a live ticker). */
  intervalMs?: number;
  clock?: Clock;
  /** Pairs to simulate. Default: the 22 of docs/product.md §5. */
  symbols?: readonly string[];
  /** Starting prices by symbol (default: realistic levels from `SIM_PAIR_PARAMS`). */
  startPrices?: Readonly<Record<string, number>>;
  /** Generated past candles per interval, so charts are full from the first second. Default 1000. */
  historyCandles?: number;
  onSubscriberError?: (error: unknown) => void;
}

/**
 * Simulated market (`MARKET_FEED=sim`, the embedded default): every `intervalMs` each pair's spot and
 * futures price moves by the `SimModel` and is published. Prices exist from construction; `start()`
 * begins the ticking.
 */
export class SimFeed implements MarketFeed {
  readonly kind = 'sim' as const;
  private readonly core: FeedCore;
  private readonly model: SimModel;
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly symbolList: readonly string[];
  private cancelTimer: (() => void) | undefined;

  constructor(options: SimFeedOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.intervalMs = options.intervalMs ?? 1000;
    this.symbolList = options.symbols ?? SYMBOLS;
    const seed = options.seed ?? 1;
    const historyCandles = options.historyCandles ?? 1000;
    this.model = new SimModel(seed, this.symbolList, options.startPrices);
    const anchors = new Map<string, number>();
    this.core = new FeedCore(
      this.clock,
      (symbol, market) => {
        if (!this.model.has(symbol)) return undefined;
        const anchor = anchors.get(`${market}:${symbol}`) ?? this.model.price(symbol, market);
        return (interval, beforeMs) =>
          this.model.history(symbol, market, interval, beforeMs, historyCandles, anchor);
      },
      options.onSubscriberError,
    );
    const now = this.clock.now();
    for (const symbol of this.symbolList) {
      for (const market of ['spot', 'future'] as const) {
        anchors.set(`${market}:${symbol}`, this.model.price(symbol, market));
        this.core.emit(symbol, market, this.model.price(symbol, market), now, 0);
      }
    }
  }

  symbols(): readonly string[] {
    return this.symbolList;
  }

  async start(): Promise<void> {
    if (this.cancelTimer) return;
    this.cancelTimer = this.clock.setInterval(() => this.step(), this.intervalMs);
  }

  async stop(): Promise<void> {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  /** Moves the market one interval and publishes all prices (called by the timer; public for benches). */
  step(): void {
    const dtSec = this.intervalMs / 1000;
    this.model.step(dtSec);
    const now = this.clock.now();
    for (const symbol of this.symbolList) {
      const volume = this.model.volume(symbol, dtSec);
      this.core.emit(symbol, 'spot', this.model.price(symbol, 'spot'), now, volume);
      this.core.emit(symbol, 'future', this.model.price(symbol, 'future'), now, volume);
    }
  }

  subscribe(symbol: string, market: MarketKind, listener: Parameters<MarketFeed['subscribe']>[2]) {
    return this.core.subscribe(symbol, market, listener);
  }
  lastPrice(symbol: string, market: MarketKind) {
    return this.core.lastPrice(symbol, market);
  }
  price(symbol: string, market: MarketKind) {
    return this.core.price(symbol, market);
  }
  ticker24h(symbol: string, market: MarketKind) {
    return this.core.ticker24h(symbol, market);
  }
  candles(...args: Parameters<MarketFeed['candles']>) {
    return this.core.candles(...args);
  }
}
