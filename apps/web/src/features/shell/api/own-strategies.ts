import { type StrategyListResponse, strategyKindApiPaths } from '@gridbot/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * The user's own Multigrid strategy names; the header polls them every 10 s (docs/spec/01-core-screens.md §4). The query key is
 * the one Start New Bot lists them under, so a strategy saved in another tab shows up there too.
 */
export function useOwnStrategyNames() {
  return useQuery({
    queryKey: ['strategies', 'multigrid', 'own'],
    queryFn: ({ signal }) => api.get<StrategyListResponse>(strategyKindApiPaths.multigrid.mine, { signal }),
    refetchInterval: 10_000,
  });
}
