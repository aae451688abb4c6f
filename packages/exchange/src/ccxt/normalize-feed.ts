/** Pure conversions of ccxt market data (tickers, OHLCV rows) to the feed port's types. */
import type { MarketKind } from '@gridbot/shared';
import type { OHLCV, Ticker } from 'ccxt';
import { priceDecimals } from '../feeds/feed-core';
import type { Candle, Ticker24h } from '../market-feed';

const fmt = (value: number | undefined, decimals: number) => (value ?? 0).toFixed(decimals);

export function binanceTicker24h(symbol: string, market: MarketKind, ticker: Ticker): Ticker24h {
  const d = priceDecimals(symbol, market);
  return {
    symbol,
    market,
    lastPrice: fmt(ticker.last, d),
    changePct: (ticker.percentage ?? 0).toFixed(2),
    openPrice: fmt(ticker.open, d),
    highPrice: fmt(ticker.high, d),
    lowPrice: fmt(ticker.low, d),
  };
}

export function binanceCandle(symbol: string, market: MarketKind, row: OHLCV): Candle {
  const d = priceDecimals(symbol, market);
  const [time, open, high, low, close, volume] = row;
  return {
    openTimeMs: Number(time),
    open: fmt(open, d),
    high: fmt(high, d),
    low: fmt(low, d),
    close: fmt(close, d),
    volume: String(volume ?? 0),
  };
}
