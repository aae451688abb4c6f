import {
  type BotSummary,
  botApiPaths,
  botKindApiPaths,
  type GridBotView,
  gridApiPaths,
  type PieChartData,
  type ProfitTotals,
} from '@gridbot/shared';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../../lib/api-client';

/** docs/spec/01-core-screens.md §4: the dashboard refreshes every 10 s, but not while the disclaimer is open. */
export const DASHBOARD_REFRESH_MS = 10_000;

function poll(paused: boolean) {
  return paused ? false : DASHBOARD_REFRESH_MS;
}

/** The dashboard's queries, one definition for its hooks and for the prefetch that starts them early. */
const dashboardQueries = {
  multigridBots: queryOptions({
    queryKey: ['dashboard', 'botstatus'],
    queryFn: ({ signal }) => api.get<{ bots: BotSummary[] }>(botKindApiPaths.multigrid.status, { signal }),
  }),
  scalpingBots: queryOptions({
    queryKey: ['dashboard', 'scalpbotstatus'],
    queryFn: ({ signal }) => api.get<{ bots: BotSummary[] }>(botKindApiPaths.scalping.status, { signal }),
  }),
  multigridPie: queryOptions({
    queryKey: ['dashboard', 'pichart'],
    queryFn: ({ signal }) => api.get<PieChartData>(botKindApiPaths.multigrid.pieChart, { signal }),
  }),
  scalpingPie: queryOptions({
    queryKey: ['dashboard', 'scalppichart'],
    queryFn: ({ signal }) => api.get<PieChartData>(botKindApiPaths.scalping.pieChart, { signal }),
  }),
  /** The user's range grids (docs/trading-rules.md §2.6); the running ones are live bots too. */
  grids: queryOptions({
    queryKey: ['dashboard', 'gridbots'],
    queryFn: ({ signal }) => api.get<GridBotView[]>(gridApiPaths.list, { signal }),
  }),
  profitTotals: queryOptions({
    queryKey: ['dashboard', 'totalprofitbookdata'],
    queryFn: ({ signal }) => api.get<ProfitTotals>(botApiPaths.profitTotals, { signal }),
  }),
};

/** Asks for every figure of the dashboard's first screen while the page's code downloads (app/prefetch.ts). */
export function prefetchDashboardData(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(dashboardQueries.multigridBots);
  void queryClient.prefetchQuery(dashboardQueries.scalpingBots);
  void queryClient.prefetchQuery(dashboardQueries.multigridPie);
  void queryClient.prefetchQuery(dashboardQueries.scalpingPie);
  void queryClient.prefetchQuery(dashboardQueries.profitTotals);
  void queryClient.prefetchQuery(dashboardQueries.grids);
}

const NO_GRIDS: GridBotView[] = [];

/**
 * The running range grids (Waiting, Live, Stopping), newest first as the server lists them. A failed read
 * shows none: the other bots' cards do not wait for it.
 */
export function useRunningGrids(paused: boolean) {
  const grids = useQuery({ ...dashboardQueries.grids, refetchInterval: poll(paused) });
  const running = useMemo(
    () => (grids.data ?? NO_GRIDS).filter((grid) => grid.status !== 'Stopped'),
    [grids.data],
  );
  return { grids: running, loading: grids.isPending };
}

export function useLiveBots(paused: boolean) {
  const multigrid = useQuery({ ...dashboardQueries.multigridBots, refetchInterval: poll(paused) });
  const scalping = useQuery({ ...dashboardQueries.scalpingBots, refetchInterval: poll(paused) });
  // The client tags each bot as multigrid or scalp (docs/spec/01-core-screens.md §3), whatever the server said.
  // One array per pair of answers, so that a page can tell new bots from a render with the same ones.
  const bots: BotSummary[] = useMemo(
    () => [
      ...(multigrid.data?.bots ?? []).map((bot) => ({ ...bot, tradeType: 'multigrid' as const })),
      ...(scalping.data?.bots ?? []).map((bot) => ({ ...bot, tradeType: 'scalp' as const })),
    ],
    [multigrid.data, scalping.data],
  );
  return {
    bots,
    loading: multigrid.isPending || scalping.isPending,
    error: multigrid.isError && scalping.isError,
  };
}

export function usePieCharts(paused: boolean) {
  const multigrid = useQuery({ ...dashboardQueries.multigridPie, refetchInterval: poll(paused) });
  const scalping = useQuery({ ...dashboardQueries.scalpingPie, refetchInterval: poll(paused) });
  return { multigrid, scalping };
}

export function useProfitTotals(paused: boolean) {
  return useQuery({ ...dashboardQueries.profitTotals, refetchInterval: poll(paused) });
}
