import { botKindApiPaths, cycleApiPaths, gridApiPaths, type HistoryRow } from '@gridbot/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type HistoryTab = 'multigrid' | 'scalping' | 'cycle' | 'range';

const paths = {
  multigrid: botKindApiPaths.multigrid.history,
  scalping: botKindApiPaths.scalping.history,
  cycle: cycleApiPaths.history,
  range: gridApiPaths.history,
} as const;

/** Stopped bots, cycles and range grids, newest first (docs/spec/01-core-screens.md §7): the same history rows for every tab. */
export function useBotHistory(tab: HistoryTab) {
  return useQuery({
    queryKey: ['history', tab],
    queryFn: ({ signal }) => api.get<{ rows: HistoryRow[] }>(paths[tab], { signal }),
    select: (data) => data.rows,
  });
}
