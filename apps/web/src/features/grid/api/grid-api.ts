import {
  type CandleColumns,
  decodeCandles,
  type EncodedCandles,
  type GridBotInfo,
  type GridBotView,
  type GridEditInput,
  type GridFillView,
  type GridStopInput,
  gridApiPaths,
  livePricePath,
  marketApiPaths,
  type StartGridInput,
} from '@gridbot/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accountQueryRoot } from '../../../lib/account-queries';
import { api } from '../../../lib/api-client';

/** Running pages refresh every 10 s, like every other bot page (docs/architecture.md §4). */
export const GRID_REFRESH_MS = 10_000;

export const gridKeys = {
  all: ['grid'] as const,
  bot: (id: string) => ['grid', id] as const,
  info: (id: string) => ['grid', id, 'info'] as const,
  fills: (id: string) => ['grid', id, 'fills'] as const,
};

/** GET /api/gridbots: the user's range grids, running first. */
export function useGridList() {
  return useQuery({
    queryKey: [...gridKeys.all, 'list'],
    queryFn: ({ signal }) => api.get<GridBotView[]>(gridApiPaths.list, { signal }),
    refetchInterval: GRID_REFRESH_MS,
  });
}

export function useGridInfo(id: string) {
  return useQuery({
    queryKey: gridKeys.info(id),
    queryFn: ({ signal }) => api.post<GridBotInfo>(gridApiPaths.info, { botID: id }, { signal }),
    refetchInterval: GRID_REFRESH_MS,
  });
}

export function useGridFills(id: string, enabled: boolean) {
  return useQuery({
    queryKey: gridKeys.fills(id),
    queryFn: ({ signal }) => api.post<GridFillView[]>(gridApiPaths.fills, { botID: id }, { signal }),
    refetchInterval: GRID_REFRESH_MS,
    enabled,
  });
}

export function useStartGrid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartGridInput) =>
      api.post<{ message: string; botID: string }>(gridApiPaths.start, input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['bots'] }),
  });
}

export function useEditGrid(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<GridEditInput, 'botID'>) =>
      api.post<{ message: string }>(gridApiPaths.edit, { ...input, botID: id }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: gridKeys.bot(id) }),
  });
}

export function useStopGrid(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<GridStopInput, 'botID'>) =>
      api.post<{ message: string }>(gridApiPaths.stop, { ...input, botID: id }),
    // A stop cancels the grid's resting orders and may sell its coin or close its position: the account
    // changed too.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: gridKeys.bot(id) });
      void queryClient.invalidateQueries({ queryKey: accountQueryRoot });
    },
  });
}

/** The pair's last price (POST /api/liveprice or /api/futureliveprice): the price the preview starts at. */
export function useGridLivePrice(pair: string, category: 'Spot' | 'Future') {
  const market = category === 'Future' ? 'future' : 'spot';
  return useQuery({
    queryKey: ['market', 'live-price', market, pair],
    queryFn: ({ signal }) =>
      api.post<{ pair: string; price: string }>(livePricePath(market), { pair }, { signal }),
    select: (data) => Number(data.price),
    enabled: pair !== '',
    refetchInterval: GRID_REFRESH_MS,
  });
}

export function useSymbolPairs() {
  return useQuery({
    queryKey: ['bots', 'symbol-pairs'],
    queryFn: ({ signal }) => api.get<{ pairs: string[] }>(marketApiPaths.symbolPairs, { signal }),
    select: (data) => data.pairs,
    staleTime: 60_000,
  });
}

/** GET /api/candles with a period: hourly candles of the pair, decoded (docs/architecture.md §5). */
export async function getHourlyHistory(
  symbol: string,
  category: 'spot' | 'future',
  fromMs: number,
  toMs: number,
): Promise<CandleColumns> {
  const query = new URLSearchParams({
    symbol,
    category,
    interval: '1h',
    from: String(fromMs),
    to: String(toMs),
  });
  return decodeCandles(await api.get<EncodedCandles>(`${marketApiPaths.candles}?${query}`));
}
