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

/**
 * Funding-rate history of the fake Binance server, answered as Binance documents `GET /fapi/v1/fundingRate`
 * ([USDⓈ-M futures] "Get Funding Rate History",
 * developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api/Get-Funding-Rate-History).
 */
export class FakeFundingRates {
  private readonly series = new Map<string, { fundingTime: number; fundingRate: number }[]>();

  set(symbol: string, rows: readonly { fundingTime: number; fundingRate: number }[]): void {
    this.series.set(
      symbol,
      [...rows].sort((a, b) => a.fundingTime - b.fundingTime),
    );
  }

  /**
   * [futures] "startTime: Timestamp in ms to get funding rate from INCLUSIVE", "endTime: … until INCLUSIVE",
   * "limit: Default 100; max 1000"; "If startTime and endTime are not sent, the most recent 200 records are
   * returned"; "If the number of data between startTime and endTime is larger than limit, return as
   * startTime + limit"; "In ascending order". The symbol is optional in the docs; the adapter always sends it.
   */
  answer(p: Record<string, string>): unknown[] {
    const all = this.series.get(p.symbol ?? '') ?? [];
    const start = p.startTime === undefined ? undefined : Number(p.startTime);
    const end = p.endTime === undefined ? undefined : Number(p.endTime);
    if (start === undefined && end === undefined) return all.slice(-200).map(row(p.symbol ?? ''));
    const limit = Math.min(Number(p.limit ?? 100), 1000);
    const inRange = all.filter(
      (r) => (start === undefined || r.fundingTime >= start) && (end === undefined || r.fundingTime <= end),
    );
    return inRange.slice(0, limit).map(row(p.symbol ?? ''));
  }
}

// [futures] Response: symbol, fundingRate (string), fundingTime (ms), markPrice (string).
const row = (symbol: string) => (r: { fundingTime: number; fundingRate: number }) => ({
  symbol,
  fundingRate: r.fundingRate.toFixed(8),
  fundingTime: r.fundingTime,
  markPrice: '0.00000000',
});
