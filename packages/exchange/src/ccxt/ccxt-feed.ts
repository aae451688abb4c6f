import { type MarketKind, SYMBOLS } from '@gridbot/shared';
import type { Exchange as CcxtExchange } from 'ccxt';
import { tickPrice } from '../feeds/feed-core';
import { TickHub } from '../feeds/tick-hub';
import type { Candle, CandleInterval, MarketFeed, Ticker24h, TickListener } from '../market-feed';
import { binanceCandle, binanceTicker24h } from './normalize-feed';

/** What every exchange's live feed takes. */
export interface CcxtFeedOptions {
  symbols?: readonly string[];
  onSubscriberError?: (error: unknown) => void;
  /** Called when a stream fails; it reconnects by itself after a back-off. */
  onStreamError?: (error: unknown, stream: string) => void;
}

/** ccxt's unified symbol: 'BTC/USDT' on spot, 'BTC/USDT:USDT' for the USDT-margined perpetual. */
export function unifiedSymbol(symbol: string, market: MarketKind): string {
  const base = symbol.slice(0, -'USDT'.length);
  return market === 'spot' ? `${base}/USDT` : `${base}/USDT:USDT`;
}

/**
 * Live prices of one exchange over ccxt's websocket support: a stream's 24 h ticker (`watchTicker`) runs while it
 * has subscribers. Candles and 24 h figures come from REST. A failing stream reconnects with back-off up to 30 s.
 * `clients` are ccxt pro clients, one per market kind (they may be one client).
 */
export class CcxtTickerFeed<Kind extends MarketFeed['kind']> implements MarketFeed {
  private readonly hub: TickHub;
  private readonly running = new Set<string>();
  private started = false;

  constructor(
    readonly kind: Kind,
    private readonly clients: Record<MarketKind, CcxtExchange>,
    private readonly options: CcxtFeedOptions = {},
  ) {
    this.hub = new TickHub(options.onSubscriberError);
  }

  symbols(): readonly string[] {
    return this.options.symbols ?? SYMBOLS;
  }

  async start(): Promise<void> {
    this.started = true;
  }

  async stop(): Promise<void> {
    this.started = false;
    const clients = new Set(Object.values(this.clients));
    await Promise.all([...clients].map((client) => client.close()));
  }

  subscribe(symbol: string, market: MarketKind, listener: TickListener): () => void {
    const upper = symbol.toUpperCase();
    const unsubscribe = this.hub.subscribe(upper, market, listener);
    this.ensureStream(upper, market);
    return unsubscribe;
  }

  lastPrice(symbol: string, market: MarketKind): string | undefined {
    return this.hub.last(symbol.toUpperCase(), market)?.price;
  }

  async price(symbol: string, market: MarketKind): Promise<string> {
    const known = this.lastPrice(symbol, market);
    if (known !== undefined) return known;
    return (await this.ticker24h(symbol, market)).lastPrice;
  }

  async ticker24h(symbol: string, market: MarketKind): Promise<Ticker24h> {
    const upper = symbol.toUpperCase();
    const ticker = await this.clients[market].fetchTicker(unifiedSymbol(upper, market));
    return binanceTicker24h(upper, market, ticker);
  }

  async candles(
    symbol: string,
    market: MarketKind,
    interval: CandleInterval,
    limit: number,
  ): Promise<Candle[]> {
    const upper = symbol.toUpperCase();
    const rows = await this.clients[market].fetchOHLCV(
      unifiedSymbol(upper, market),
      interval,
      undefined,
      limit,
    );
    return rows.map((row) => binanceCandle(upper, market, row));
  }

  private ensureStream(symbol: string, market: MarketKind): void {
    const key = `${market}:${symbol}`;
    if (this.running.has(key)) return;
    this.running.add(key);
    void this.loop(symbol, market, key);
  }

  private async loop(symbol: string, market: MarketKind, key: string): Promise<void> {
    const client = this.clients[market];
    let delayMs = 1000;
    while (this.hub.subscriberCount(symbol, market) > 0) {
      if (!this.started) {
        await sleep(200);
        continue;
      }
      try {
        const ticker = await client.watchTicker(unifiedSymbol(symbol, market));
        delayMs = 1000;
        if (typeof ticker.last === 'number') {
          this.hub.publish({
            symbol,
            market,
            price: tickPrice(symbol, market, ticker.last),
            tsMs: ticker.timestamp ?? Date.now(),
            emittedAt: performance.now(),
          });
        }
      } catch (error) {
        this.options.onStreamError?.(error, key);
        await sleep(delayMs * (0.5 + Math.random() / 2));
        delayMs = Math.min(30_000, delayMs * 2);
      }
    }
    this.running.delete(key);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
