import type { FundingSeries, MarketKind } from '@gridbot/shared';
import type { NumCandle } from '../feeds/candle-book';
import { type CandleInterval, INTERVAL_MS } from '../market-feed';
import { type BinanceClientOptions, createBinanceClients } from './binance-clients';
import { unifiedSymbol } from './binance-feed';

/** Candles per request: the spot maximum ([spot rest-api.md] "Kline/Candlestick data": "Maximum: 1000"). */
const PAGE = 1000;
/** Funding rows per request ([USDⓈ-M futures] "Get Funding Rate History": limit "max 1000"). */
const FUNDING_PAGE = 1000;

/**
 * Public Binance klines for backtests, paged through ccxt's `fetchOHLCV` (`GET /api/v3/klines`,
 * `/fapi/v1/klines`) within the shared request budget (budget/request-budget.ts), like every other request.
 */
export class BinanceKlines {
  private readonly clients;

  constructor(options: Omit<BinanceClientOptions, 'apiKey' | 'secret'> = {}) {
    const { spot, usdm } = createBinanceClients(options);
    this.clients = { spot, future: usdm } as const;
  }

  /** Candles with from ≤ open time < to, ascending; a period Binance has no candles in is skipped over. */
  async fetch(
    symbol: string,
    market: MarketKind,
    interval: CandleInterval,
    fromMs: number,
    toMs: number,
  ): Promise<NumCandle[]> {
    const client = this.clients[market];
    const out: NumCandle[] = [];
    let since = fromMs;
    while (since < toMs) {
      const rows = await client.fetchOHLCV(unifiedSymbol(symbol, market), interval, since, PAGE, {
        endTime: toMs - 1,
      });
      for (const [t, o, h, l, c, v] of rows) {
        if (t === undefined || t < since || t >= toMs) continue;
        out.push({
          openTimeMs: t,
          open: Number(o),
          high: Number(h),
          low: Number(l),
          close: Number(c),
          volume: Number(v ?? 0),
        });
      }
      const last = rows[rows.length - 1]?.[0];
      // A short page is the last one: Binance gives up to the limit from startTime on.
      if (rows.length < PAGE || last === undefined) break;
      since = last + INTERVAL_MS[interval];
    }
    return out;
  }

  /**
   * USDT-M funding rates with from ≤ funding time < to, ascending, paged through ccxt's
   * `fetchFundingRateHistory` (`GET /fapi/v1/fundingRate`, up to 1000 rows from startTime) within the shared
   * request budget.
   */
  async fundingRates(symbol: string, fromMs: number, toMs: number): Promise<FundingSeries> {
    const out: FundingSeries = { timeMs: [], rate: [] };
    let since = fromMs;
    while (since < toMs) {
      const rows = await this.clients.future.fetchFundingRateHistory(
        unifiedSymbol(symbol, 'future'),
        since,
        FUNDING_PAGE,
        { endTime: toMs - 1 },
      );
      for (const r of rows) {
        const t = r.timestamp;
        if (t === undefined || t < since || t >= toMs) continue;
        out.timeMs.push(t);
        out.rate.push(Number(r.fundingRate));
      }
      const last = rows[rows.length - 1]?.timestamp;
      if (rows.length < FUNDING_PAGE || last === undefined) break;
      since = last + 1;
    }
    return out;
  }

  async close(): Promise<void> {
    await Promise.all([this.clients.spot.close(), this.clients.future.close()]);
  }
}
