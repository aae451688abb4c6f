import { decimalsOf, findMarketRules, type MarketKind, roundToTick } from '@gridbot/shared';
import type { Candle, CandleInterval, Tick, Ticker24h, TickListener } from '../market-feed';
import { CandleBook, type HistoryProvider, stats24h } from './candle-book';
import type { Clock } from './clock';
import { streamKey, TickHub } from './tick-hub';

/** Price decimals of a stream: the tick size's, or 8 for a symbol outside the rules table. */
export function priceDecimals(symbol: string, market: MarketKind): number {
  const rules = findMarketRules(symbol, market);
  return rules ? decimalsOf(rules.tickSize) : 8;
}

/** A price rounded to the market's tick size (shared `roundToTick`), as a decimal string. */
export function tickPrice(symbol: string, market: MarketKind, price: number): string {
  const rules = findMarketRules(symbol, market);
  if (!rules) return price.toFixed(8);
  const rounded = roundToTick(price.toPrecision(15), rules.tickSize);
  return rounded.isZero() ? rules.tickSize : rounded.toFixed(decimalsOf(rules.tickSize));
}

/**
 * What the sim and replay feeds share: the tick hub, one candle book per stream and the read side of
 * the `MarketFeed` port built on them. Feeds call `emit` for every price they produce.
 */
export class FeedCore {
  readonly hub: TickHub;
  private readonly books = new Map<string, CandleBook>();

  constructor(
    private readonly clock: Clock,
    private readonly historyFor: (symbol: string, market: MarketKind) => HistoryProvider | undefined,
    onError?: (error: unknown) => void,
  ) {
    this.hub = new TickHub(onError);
  }

  /**
   * Publishes a price (a number, rounded here to the tick) at `tsMs` with the base volume traded since the
   * last. `emittedAt` is kept when a relay passes on a tick emitted in another process.
   */
  emit(
    symbol: string,
    market: MarketKind,
    price: number,
    tsMs: number,
    volume = 0,
    emittedAt = performance.now(),
    markPrice?: number,
  ): void {
    const text = tickPrice(symbol, market, price);
    this.book(symbol, market).onTick(Number(text), tsMs, volume);
    const tick: Tick = { symbol, market, price: text, tsMs, emittedAt };
    if (markPrice !== undefined) tick.markPrice = tickPrice(symbol, market, markPrice);
    this.hub.publish(tick);
  }

  subscribe(symbol: string, market: MarketKind, listener: TickListener): () => void {
    return this.hub.subscribe(symbol.toUpperCase(), market, listener);
  }

  lastPrice(symbol: string, market: MarketKind): string | undefined {
    return this.hub.last(symbol.toUpperCase(), market)?.price;
  }

  async price(symbol: string, market: MarketKind): Promise<string> {
    return (await this.hub.next(symbol.toUpperCase(), market)).price;
  }

  async ticker24h(symbol: string, market: MarketKind): Promise<Ticker24h> {
    const upper = symbol.toUpperCase();
    const last = await this.price(upper, market);
    const stats = stats24h(this.book(upper, market), Number(last), priceDecimals(upper, market));
    return { symbol: upper, market, lastPrice: last, ...stats };
  }

  async candles(
    symbol: string,
    market: MarketKind,
    interval: CandleInterval,
    limit: number,
  ): Promise<Candle[]> {
    return this.book(symbol.toUpperCase(), market).candles(interval, limit);
  }

  now(): number {
    return this.clock.now();
  }

  private book(symbol: string, market: MarketKind): CandleBook {
    const key = streamKey(symbol, market);
    let book = this.books.get(key);
    if (!book) {
      book = new CandleBook(priceDecimals(symbol, market), this.historyFor(symbol, market));
      this.books.set(key, book);
    }
    return book;
  }
}
