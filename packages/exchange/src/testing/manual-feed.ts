import { type MarketKind, SYMBOLS } from '@gridbot/shared';
import { systemClock } from '../feeds/clock';
import { FeedCore } from '../feeds/feed-core';
import type { MarketFeed } from '../market-feed';

/** A feed whose prices tests set by hand: `setPrice` publishes one tick to every subscriber. */
export class ManualFeed implements MarketFeed {
  readonly kind = 'sim' as const;
  private readonly core = new FeedCore(systemClock, () => undefined);

  constructor(prices: Record<string, string> = {}) {
    for (const [key, price] of Object.entries(prices)) {
      const [market, symbol] = key.split(':') as [MarketKind, string];
      this.setPrice(symbol, market, price);
    }
  }

  /** Publishes `price` (and a futures `markPrice`, when given) for the stream, at `tsMs` (default: now). */
  setPrice(
    symbol: string,
    market: MarketKind,
    price: string,
    tsMs = systemClock.now(),
    markPrice?: string,
  ): void {
    this.core.emit(
      symbol,
      market,
      Number(price),
      tsMs,
      0,
      performance.now(),
      markPrice === undefined ? undefined : Number(markPrice),
    );
  }

  symbols(): readonly string[] {
    return SYMBOLS;
  }
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
  subscribe(...args: Parameters<MarketFeed['subscribe']>) {
    return this.core.subscribe(...args);
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
