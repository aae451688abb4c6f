import { marketApiPaths } from '@gridbot/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface Ticker {
  symbol: string;
  price: number;
  changePct: number;
}

/** Where the prices come from: the server's market feed ('sim', 'replay', 'binance', 'bybit', 'okx') or 'static'/'live'. */
export type TickerSource = 'static' | 'live' | 'sim' | 'replay' | 'binance' | 'bybit' | 'okx' | (string & {});

export interface TickersResponse {
  source: TickerSource;
  tickers: Ticker[];
}

interface RawTickers {
  source: TickerSource;
  tickers: { symbol: string; price: number | string; changePct: number | string }[];
}

export async function getTickers(signal?: AbortSignal): Promise<TickersResponse> {
  const raw = await api.get<RawTickers>(marketApiPaths.tickers, { signal });
  return {
    source: raw.source,
    tickers: raw.tickers.map((ticker) => ({
      symbol: ticker.symbol,
      price: Number(ticker.price),
      changePct: Number(ticker.changePct),
    })),
  };
}

/** The 22 pairs of the ticker tape, refreshed every 10 s (docs/spec/01-core-screens.md §4). */
export function useTickers() {
  return useQuery({
    queryKey: ['tickers'],
    queryFn: ({ signal }) => getTickers(signal),
    refetchInterval: 10_000,
    staleTime: 10_000,
  });
}
