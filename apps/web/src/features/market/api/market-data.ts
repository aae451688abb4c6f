import { livePricePath, marketApiPaths } from '@gridbot/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type ChartInterval = '1m' | '5m' | '15m' | '1h' | '4h' | '1d';
export type ChartMarket = 'spot' | 'future';

/** One candle with numbers for drawing (the API sends decimal strings; a chart needs no exactness). */
export interface ChartCandle {
  openTimeMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

interface RawCandles {
  candles: { openTimeMs: number; open: string; high: string; low: string; close: string; volume: string }[];
}

/** Bars fetched per load: about three days of 15-minute candles. */
export const CANDLE_LIMIT = 300;
/** Bars the chart shows when it loads (the last ones); the rest is a scroll away. */
export const VISIBLE_BARS = 120;
/** The chart reloads its candles this often (the live price fills the gaps in between). */
export const CANDLES_REFRESH_MS = 10_000;
export const LIVE_PRICE_REFRESH_MS = 2_000;

export async function getCandles(
  symbol: string,
  interval: ChartInterval,
  market: ChartMarket,
  signal?: AbortSignal,
): Promise<ChartCandle[]> {
  const query = new URLSearchParams({ symbol, interval, limit: String(CANDLE_LIMIT), market });
  const raw = await api.get<RawCandles>(`${marketApiPaths.candles}?${query}`, { signal });
  return raw.candles.map((c) => ({
    openTimeMs: c.openTimeMs,
    open: Number(c.open),
    high: Number(c.high),
    low: Number(c.low),
    close: Number(c.close),
    volume: Number(c.volume),
  }));
}

export function useCandles(symbol: string, interval: ChartInterval, market: ChartMarket) {
  return useQuery({
    queryKey: ['market', 'candles', market, symbol, interval],
    queryFn: ({ signal }) => getCandles(symbol, interval, market, signal),
    refetchInterval: CANDLES_REFRESH_MS,
    staleTime: CANDLES_REFRESH_MS,
  });
}

/** The last traded price of the pair (POST /api/liveprice or /api/futureliveprice). */
export function useLivePrice(symbol: string, market: ChartMarket) {
  return useQuery({
    queryKey: ['market', 'live-price', market, symbol],
    queryFn: ({ signal }) =>
      api.post<{ pair: string; price: string }>(livePricePath(market), { pair: symbol }, { signal }),
    select: (data) => Number(data.price),
    refetchInterval: LIVE_PRICE_REFRESH_MS,
    staleTime: 0,
  });
}
