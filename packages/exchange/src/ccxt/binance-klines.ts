import type { MarketKind } from '@gridbot/shared';
import type { NumCandle } from '../feeds/candle-book';
import { type CandleInterval, INTERVAL_MS } from '../market-feed';
import { type BinanceClientOptions, createBinanceClients } from './binance-clients';
import { unifiedSymbol } from './binance-feed';

/** Candles per request: the spot maximum ([spot rest-api.md] "Kline/Candlestick data": "Maximum: 1000"). */
const PAGE = 1000;

/**
 * Public Binance klines for backtests, paged through ccxt's `fetchOHLCV` (`GET /api/v3/klines`,
 * `/fapi/v1/klines`) within the process's shared rate limiter (ccxt/rate-gate.ts), like every other request.
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

  async close(): Promise<void> {
    await Promise.all([this.clients.spot.close(), this.clients.future.close()]);
  }
}
