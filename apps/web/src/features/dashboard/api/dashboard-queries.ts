import {
  type BotSummary,
  botApiPaths,
  botKindApiPaths,
  type PieChartData,
  type ProfitTotals,
} from '@gridbot/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** docs/spec/01-core-screens.md §4: the dashboard refreshes every 10 s, but not while the disclaimer is open. */
export const DASHBOARD_REFRESH_MS = 10_000;

function poll(paused: boolean) {
  return paused ? false : DASHBOARD_REFRESH_MS;
}

export function useLiveBots(paused: boolean) {
  const multigrid = useQuery({
    queryKey: ['dashboard', 'botstatus'],
    queryFn: ({ signal }) => api.get<{ bots: BotSummary[] }>(botKindApiPaths.multigrid.status, { signal }),
    refetchInterval: poll(paused),
  });
  const scalping = useQuery({
    queryKey: ['dashboard', 'scalpbotstatus'],
    queryFn: ({ signal }) => api.get<{ bots: BotSummary[] }>(botKindApiPaths.scalping.status, { signal }),
    refetchInterval: poll(paused),
  });
  // The client tags each bot as multigrid or scalp (docs/spec/01-core-screens.md §3), whatever the server said.
  const bots: BotSummary[] = [
    ...(multigrid.data?.bots ?? []).map((bot) => ({ ...bot, tradeType: 'multigrid' as const })),
    ...(scalping.data?.bots ?? []).map((bot) => ({ ...bot, tradeType: 'scalp' as const })),
  ];
  return {
    bots,
    loading: multigrid.isPending || scalping.isPending,
    error: multigrid.isError && scalping.isError,
  };
}

export function usePieCharts(paused: boolean) {
  const multigrid = useQuery({
    queryKey: ['dashboard', 'pichart'],
    queryFn: ({ signal }) => api.get<PieChartData>(botKindApiPaths.multigrid.pieChart, { signal }),
    refetchInterval: poll(paused),
  });
  const scalping = useQuery({
    queryKey: ['dashboard', 'scalppichart'],
    queryFn: ({ signal }) => api.get<PieChartData>(botKindApiPaths.scalping.pieChart, { signal }),
    refetchInterval: poll(paused),
  });
  return { multigrid, scalping };
}

export function useProfitTotals(paused: boolean) {
  return useQuery({
    queryKey: ['dashboard', 'totalprofitbookdata'],
    queryFn: ({ signal }) => api.get<ProfitTotals>(botApiPaths.profitTotals, { signal }),
    refetchInterval: poll(paused),
  });
}
