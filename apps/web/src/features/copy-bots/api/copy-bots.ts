import type { TopBot } from '@gridbot/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function useTopBots() {
  return useQuery({
    queryKey: ['copy-bots', 'top'],
    queryFn: ({ signal }) => api.get<{ bots: TopBot[] }>('/api/livebotdata', { signal }),
    select: (data) => data.bots,
    refetchInterval: 10_000,
  });
}

/** Copies the bot's strategy into the user's own strategies; the answer names the copy. */
export function useCopyBotStrategy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (botID: string) =>
      api.post<{ strategy_name: string; botType: string }>('/api/copybotstrategy', { botID }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['strategies'] }),
  });
}
