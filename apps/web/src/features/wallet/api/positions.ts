import { type PositionsList, positionApiPaths } from '@gridbot/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { walletQueryKeys } from './wallet-queries';

/** Positions move with the price (mark, PnL); polled like the balances they hold margin of. */
const REFRESH_MS = 10_000;

/** Under 'wallet', so a transfer, a swap or a close refreshes it with the balances. */
export const positionsQueryKey = [...walletQueryKeys.all, 'positions'] as const;

/** GET /api/positions: every futures position of the account, with the bot it belongs to. */
export function usePositions() {
  return useQuery({
    queryKey: positionsQueryKey,
    queryFn: ({ signal }) => api.get<PositionsList>(positionApiPaths.list, { signal }),
    refetchInterval: REFRESH_MS,
  });
}

/** POST /api/closeposition: a reduce-only market sell of the whole position. */
export function useClosePosition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (symbol: string) =>
      api.post<{ success: boolean; message: string }>(positionApiPaths.close, { symbol }),
    // Balances and positions both change (or may be stale after a refusal): refetch the wallet.
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletQueryKeys.all }),
  });
}
