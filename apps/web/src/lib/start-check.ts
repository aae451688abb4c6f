import { botApiPaths, type StartReadiness } from '@gridbot/shared';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/** Every start check, whatever the choices. */
export const startCheckKey = ['bots', 'start-check'] as const;

/**
 * After a bot's or a cycle's start: the free funds read before it are no longer free. The start checks are dropped,
 * not only marked stale, so that no form shows them again while it asks anew (a refetch cut short when the form
 * closes would keep them); an open form asks once.
 */
export function dropStartChecks(queryClient: QueryClient): Promise<void> {
  return queryClient.resetQueries({ queryKey: startCheckKey });
}

/**
 * GET /api/startcheck: what would refuse a bot's or a cycle's start with the current choices (keys, profit limit, a bot on the
 * pair, no free USDT) and the strategy's fee warning, shown before the form is filled in. Re-read every
 * 10 s like the other live screens, since running bots change what is free.
 */
export function useStartCheck(choice: {
  category: string;
  pair: string;
  botType?: string;
  strategy?: string;
}) {
  const query = new URLSearchParams({ category: choice.category === 'Future' ? 'Future' : 'Spot' });
  if (choice.pair) query.set('pair', choice.pair);
  if (choice.botType && choice.strategy) {
    query.set('botType', choice.botType);
    query.set('strategy', choice.strategy);
  }
  return useQuery({
    queryKey: [...startCheckKey, query.toString()],
    queryFn: ({ signal }) => api.get<StartReadiness>(`${botApiPaths.startCheck}?${query}`, { signal }),
    refetchInterval: 10_000,
    placeholderData: (previous) => previous,
  });
}
