import type { FundingSeries, MarketKind } from '@gridbot/shared';
import { type Exchange as CcxtExchange, pro } from 'ccxt';
import type { NumCandle } from '../feeds/candle-book';
import { type CandleInterval, INTERVAL_MS } from '../market-feed';
import { type CcxtFeedOptions, CcxtTickerFeed, unifiedSymbol } from './ccxt-feed';

/** The exchanges besides Binance whose public market a deployment can follow (`MARKET_FEED=bybit|okx`). */
export type VenueFeedKind = 'bybit' | 'okx';

/**
 * One public ccxt client of the exchange for spot and USDT perpetuals alike: the unified symbol ('BTC/USDT',
 * 'BTC/USDT:USDT') picks the market, and markets are loaded for these two types only.
 */
function publicClient(kind: VenueFeedKind): CcxtExchange {
  return kind === 'bybit'
    ? new pro.bybit({ options: { fetchMarkets: { types: ['spot', 'linear'] } } })
    : new pro.okx({ options: { fetchMarkets: { types: ['spot', 'swap'] } } });
}

/** Live Bybit or OKX prices (`MARKET_FEED=bybit|okx`): tickers streamed, candles and 24 h figures over REST. */
export function venueFeed(kind: VenueFeedKind, options: CcxtFeedOptions = {}): CcxtTickerFeed<VenueFeedKind> {
  const client = publicClient(kind);
  return new CcxtTickerFeed(kind, { spot: client, future: client }, options);
}

/**
 * How many rows one request may return, from each exchange's documentation:
 * - Bybit "Get Kline" (GET /v5/market/kline): "limit … [1, 200]" in the V5 docs this was written from (later
 *   versions allow 1000; 200 is valid in both); "Get Funding Rate History": "limit … [1, 200]".
 * - OKX "Get candlesticks history" (GET /api/v5/market/history-candles): at most 100 per request (the recent
 *   candles endpoint allows 300); "Get funding rate history": 100 per request.
 */
const PAGES: Record<VenueFeedKind, { candles: number; funding: number }> = {
  bybit: { candles: 200, funding: 200 },
  okx: { candles: 100, funding: 100 },
};

/** The shortest funding interval either exchange uses (1 h), so a funding window never holds more than a page. */
const MIN_FUNDING_INTERVAL_MS = 3_600_000;

/**
 * The request's upper bound in each exchange's terms. Both return the newest rows of a range first when it holds
 * more than a page, so each request asks for a window that holds at most one page and the next starts where it
 * ended. Bybit: ccxt's unified `until` becomes the kline's `end` and the funding history's `endTime`. OKX: ccxt
 * bounds a candle request from `since` and `limit` itself (`after = since + limit × interval`); for funding,
 * OKX's `after` ("records earlier than the requested fundingTime") is the window's end.
 */
const windowEnd: Record<VenueFeedKind, { candles(endMs: number): object; funding(endMs: number): object }> = {
  bybit: { candles: (endMs) => ({ until: endMs - 1 }), funding: (endMs) => ({ until: endMs - 1 }) },
  okx: { candles: () => ({}), funding: (endMs) => ({ after: endMs }) },
};

/**
 * Public Bybit or OKX candles and funding rates for backtests, paged in windows of at most one page each through
 * ccxt (`fetchOHLCV`, `fetchFundingRateHistory`). Rows outside [from, to) are dropped; each time appears once.
 */
export class VenueKlines {
  private readonly client: CcxtExchange;

  constructor(
    private readonly kind: VenueFeedKind,
    client?: CcxtExchange,
  ) {
    this.client = client ?? publicClient(kind);
  }

  async fetch(
    symbol: string,
    market: MarketKind,
    interval: CandleInterval,
    fromMs: number,
    toMs: number,
  ): Promise<NumCandle[]> {
    const page = PAGES[this.kind].candles;
    const out: NumCandle[] = [];
    let last = -1;
    for (let since = fromMs; since < toMs; since += page * INTERVAL_MS[interval]) {
      const end = Math.min(toMs, since + page * INTERVAL_MS[interval]);
      const rows = await this.client.fetchOHLCV(
        unifiedSymbol(symbol, market),
        interval,
        since,
        page,
        windowEnd[this.kind].candles(end),
      );
      for (const [t, o, h, l, c, v] of rows) {
        if (t === undefined || t < since || t >= end || t <= last) continue;
        last = t;
        out.push({
          openTimeMs: t,
          open: Number(o),
          high: Number(h),
          low: Number(l),
          close: Number(c),
          volume: Number(v ?? 0),
        });
      }
    }
    return out;
  }

  async fundingRates(symbol: string, fromMs: number, toMs: number): Promise<FundingSeries> {
    const page = PAGES[this.kind].funding;
    const out: FundingSeries = { timeMs: [], rate: [] };
    let last = -1;
    for (let since = fromMs; since < toMs; since += page * MIN_FUNDING_INTERVAL_MS) {
      const end = Math.min(toMs, since + page * MIN_FUNDING_INTERVAL_MS);
      const rows = await this.client.fetchFundingRateHistory(
        unifiedSymbol(symbol, 'future'),
        since,
        page,
        windowEnd[this.kind].funding(end),
      );
      for (const r of rows) {
        const t = r.timestamp;
        if (t === undefined || t < since || t >= end || t <= last) continue;
        last = t;
        out.timeMs.push(t);
        out.rate.push(Number(r.fundingRate));
      }
    }
    return out;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
