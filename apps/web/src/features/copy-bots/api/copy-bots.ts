import { botApiPaths, type TopBot } from '@gridbot/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The Copy BOTs filters; empty values mean "any". */
export interface TopBotFilters {
  pair: string;
  category: '' | 'Spot' | 'Future';
  /** Minimum runtime in days ('' = the server's own minimum of one day). */
  minDays: string;
}

export function useTopBots(filters: TopBotFilters = { pair: '', category: '', minDays: '' }) {
  const query = new URLSearchParams();
  if (filters.pair) query.set('pair', filters.pair);
  if (filters.category) query.set('category', filters.category);
  if (filters.minDays) query.set('minDays', filters.minDays);
  const search = query.toString();
  return useQuery({
    queryKey: ['copy-bots', 'top', search],
    queryFn: ({ signal }) =>
      api.get<{ bots: TopBot[] }>(`${botApiPaths.topBots}${search ? `?${search}` : ''}`, { signal }),
    select: (data) => data.bots,
    refetchInterval: 10_000,
  });
}

/**
 * What a copy answers: the name of the strategy stored for the user, or for a range grid (which keeps no saved
 * strategies) the grid's parameters for Start Grid.
 */
export type CopiedStrategy =
  | { strategy_name: string; botType: string }
  | { botType: 'range'; strategy: Record<string, unknown> };

/** Copies the bot's strategy into the user's own strategies by its opaque token; the answer names the copy. */
export function useCopyBotStrategy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (copyToken: string) => api.post<CopiedStrategy>(botApiPaths.copyBotStrategy, { copyToken }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['strategies'] }),
  });
}
