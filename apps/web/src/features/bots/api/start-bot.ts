import {
  botApiPaths,
  botKindApiPaths,
  DEFAULT_MINIMUM_BOT_AMOUNT,
  livePricePath,
  marketApiPaths,
  type StartBotInput,
  type StrategyListResponse,
  strategyApiPaths,
  strategyKindApiPaths,
} from '@gridbot/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { dropStartChecks, startCheckKey } from '../../../lib/start-check';
import type { BotKind } from './bot-paths';
import { botKeys } from './running-bot';

export function useMinimumBotAmount() {
  return useQuery({
    queryKey: ['bots', 'minimum-amount'],
    queryFn: ({ signal }) =>
      api.get<{ minimumBotAmount: number | string }>(botApiPaths.minimumAmount, { signal }),
    select: (data) => {
      const n = Number(data.minimumBotAmount);
      return Number.isFinite(n) && n > 0 ? n : DEFAULT_MINIMUM_BOT_AMOUNT;
    },
    staleTime: 60_000,
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

/** Strategy names for the chosen bot type: own first, then the system ones (docs/spec/01-core-screens.md Start New Bot). */
export function useStrategyChoices(kind: BotKind) {
  const paths = strategyKindApiPaths[kind];
  const mine = useQuery({
    queryKey: ['strategies', kind, 'own'],
    queryFn: ({ signal }) => api.get<StrategyListResponse>(paths.mine, { signal }),
  });
  const system = useQuery({
    queryKey: ['strategies', kind, 'system'],
    queryFn: ({ signal }) => api.get<StrategyListResponse>(paths.system, { signal }),
    staleTime: 60_000,
  });
  return {
    own: mine.data?.strategies ?? [],
    system: system.data?.strategies ?? [],
    loading: mine.isPending || system.isPending,
  };
}

/** POST /api/noofgrid: the strategy's grid count, for the minimum-by-grid rule. */
export function useGridCount(kind: BotKind, strategyName: string) {
  return useQuery({
    queryKey: ['bots', 'noofgrid', kind, strategyName.toLowerCase()],
    queryFn: ({ signal }) =>
      api.post<{ noOfGrid: number }>(strategyApiPaths.gridCount, { strategyName, kind }, { signal }),
    select: (data) => Number(data.noOfGrid),
    enabled: strategyName.trim() !== '',
    staleTime: 60_000,
  });
}

/** The pair's price on the chosen market, refreshed every 5 s while the form is open. */
export function useLivePrice(pair: string, category: string) {
  const future = category === 'Future';
  return useQuery({
    queryKey: ['bots', 'live-price', future ? 'future' : 'spot', pair],
    queryFn: ({ signal }) =>
      api.post<{ pair: string; price: string | number }>(
        livePricePath(future ? 'future' : 'spot'),
        { pair },
        { signal },
      ),
    select: (data) => Number(data.price),
    enabled: pair !== '',
    refetchInterval: 5_000,
  });
}

export function useStartBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, payload }: { kind: BotKind; payload: StartBotInput }) =>
      api.post<{ message: string; botId: string }>(botKindApiPaths[kind].start, payload),
    onSuccess: async () => {
      await dropStartChecks(queryClient);
      // The start checks are under the bots' key too: asked again once, by the drop.
      await queryClient.invalidateQueries({
        queryKey: botKeys.all,
        predicate: (query) => query.queryKey[1] !== startCheckKey[1],
      });
    },
  });
}
