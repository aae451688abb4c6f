import { type MarketKind, SYMBOLS } from '@gridbot/shared';
import type { Candle, CandleInterval, MarketFeed, Tick, Ticker24h, TickListener } from '../market-feed';
import { type Clock, systemClock } from './clock';
import { FeedCore } from './feed-core';

export interface RelayFeedOptions {
  /** What `kind` reports: the kind of the feed the ticks come from. */
  kind: MarketFeed['kind'];
  /** Called by `start()` with the function every relayed tick goes to; returns the unsubscribe function. */
  source: (push: (tick: Tick) => void) => Promise<() => Promise<void>>;
  symbols?: readonly string[];
  clock?: Clock;
  onSubscriberError?: (error: unknown) => void;
}

/**
 * A `MarketFeed` whose ticks are produced by a feed in another process (scale-out: one market
 * process publishes, every worker and API process relays). Subscribers, last prices and candles behave as on
 * the original feed; candles start from the ticks seen since this process started.
 */
export class RelayFeed implements MarketFeed {
  readonly kind: MarketFeed['kind'];
  private readonly core: FeedCore;
  private stopSource: (() => Promise<void>) | undefined;
  private received = 0;

  constructor(private readonly options: RelayFeedOptions) {
    this.kind = options.kind;
    this.core = new FeedCore(options.clock ?? systemClock, () => undefined, options.onSubscriberError);
  }

  /** Ticks relayed since start. */
  get tickCount(): number {
    return this.received;
  }

  /** Publishes a tick from the source to this process's subscribers. */
  push(tick: Tick): void {
    this.received += 1;
    this.core.emit(tick.symbol, tick.market, Number(tick.price), tick.tsMs, 0, tick.emittedAt);
  }

  symbols(): readonly string[] {
    return this.options.symbols ?? SYMBOLS;
  }

  subscribe(symbol: string, market: MarketKind, listener: TickListener): () => void {
    return this.core.subscribe(symbol, market, listener);
  }

  lastPrice(symbol: string, market: MarketKind): string | undefined {
    return this.core.lastPrice(symbol, market);
  }

  price(symbol: string, market: MarketKind): Promise<string> {
    return this.core.price(symbol, market);
  }

  ticker24h(symbol: string, market: MarketKind): Promise<Ticker24h> {
    return this.core.ticker24h(symbol, market);
  }

  candles(symbol: string, market: MarketKind, interval: CandleInterval, limit: number): Promise<Candle[]> {
    return this.core.candles(symbol, market, interval, limit);
  }

  async start(): Promise<void> {
    if (this.stopSource) return;
    this.stopSource = await this.options.source((tick) => this.push(tick));
  }

  async stop(): Promise<void> {
    const stop = this.stopSource;
    this.stopSource = undefined;
    await stop?.();
  }
}
