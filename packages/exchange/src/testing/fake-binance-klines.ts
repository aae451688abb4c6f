/**
 * Kline history of the fake Binance server, answered as Binance documents `GET /api/v3/klines` ([spot
 * rest-api.md] "Kline/Candlestick data") and `GET /fapi/v1/klines` ([USDⓈ-M futures] "Kline/Candlestick Data",
 * developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api/Kline-Candlestick-Data).
 */
import type { MarketKind } from '@gridbot/shared';
import type { NumCandle } from '../feeds/candle-book';
import { INTERVAL_MS, isCandleInterval } from '../market-feed';
import { BinanceReject } from './fake-binance-book';

export class FakeKlines {
  private readonly series = new Map<string, NumCandle[]>();

  /** The candles the fake knows for a pair and interval (ascending; a gap is a gap). */
  set(symbol: string, market: MarketKind, interval: string, candles: readonly NumCandle[]): void {
    this.series.set(
      `${market}:${symbol}:${interval}`,
      [...candles].sort((a, b) => a.openTimeMs - b.openTimeMs),
    );
  }

  /**
   * [spot] "limit: Default 500; Maximum 1000"; [futures] "Default 500; max 1500". "If startTime and endTime are
   * not sent, the most recent klines are returned." With startTime, klines open at or after it, oldest first
   * ("Klines are uniquely identified by their open time"), up to limit; endTime bounds the open time.
   */
  answer(market: MarketKind, p: Record<string, string>): unknown[] {
    // [spot] "Supported kline intervals (case-sensitive)"; an unknown one is error -1120 "Invalid interval."
    if (!isCandleInterval(p.interval ?? '')) throw new BinanceReject(400, -1120, 'Invalid interval.');
    const max = market === 'spot' ? 1000 : 1500;
    const limit = Math.min(Number(p.limit ?? 500), max);
    const all = this.series.get(`${market}:${p.symbol}:${p.interval}`) ?? [];
    const start = p.startTime === undefined ? undefined : Number(p.startTime);
    const end = p.endTime === undefined ? Number.POSITIVE_INFINITY : Number(p.endTime);
    const inRange = all.filter((c) => (start === undefined || c.openTimeMs >= start) && c.openTimeMs <= end);
    const page = start === undefined ? inRange.slice(-limit) : inRange.slice(0, limit);
    const size = INTERVAL_MS[p.interval as keyof typeof INTERVAL_MS];
    // [spot] Response: open time, open, high, low, close, volume, close time, quote asset volume, number of
    // trades, taker buy base asset volume, taker buy quote asset volume, ignore — prices and volumes as strings.
    return page.map((c) => [
      c.openTimeMs,
      String(c.open),
      String(c.high),
      String(c.low),
      String(c.close),
      String(c.volume),
      c.openTimeMs + size - 1,
      String(c.volume * c.close),
      1,
      '0',
      '0',
      '0',
    ]);
  }
}
