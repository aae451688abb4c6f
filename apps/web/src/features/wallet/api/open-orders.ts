import { type CancelOrderInput, type OpenOrdersList, openOrderApiPaths } from '@gridbot/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { walletQueryKeys } from './wallet-queries';

/**
 * Polled three times slower than the positions: on Binance the list of every pair costs 80 weight of the
 * spot API's minute budget and 40 of the futures API's, which the bots' trading shares, against 5 for the
 * positions. A cancel from here refreshes it at once.
 */
const REFRESH_MS = 30_000;

/** Under 'wallet', so a transfer, a swap or a cancel refreshes it with the balances an order holds. */
export const openOrdersQueryKey = [...walletQueryKeys.all, 'openorders'] as const;

/** GET /api/openorders: every open order of the account, spot and futures, with the bot it belongs to. */
export function useOpenOrders() {
  return useQuery({
    queryKey: openOrdersQueryKey,
    queryFn: ({ signal }) => api.get<OpenOrdersList>(openOrderApiPaths.list, { signal }),
    refetchInterval: REFRESH_MS,
  });
}

/** POST /api/cancelorder: cancels one order no running bot rests. */
export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (order: CancelOrderInput) =>
      api.post<{ success: boolean; message: string }>(openOrderApiPaths.cancel, order),
    // The order's held funds come back (or the list is stale after a refusal): refetch the wallet.
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletQueryKeys.all }),
  });
}
