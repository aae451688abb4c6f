import { marketApiPaths, SYMBOLS, walletApiPaths } from '@gridbot/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { walletQueryKeys } from './wallet-queries';

export type TransferDirection = 'SpotToFutures' | 'FuturesToSpot';

interface ActionReply {
  success: boolean;
  message: string;
}

const transferRoutes = {
  SpotToFutures: { path: walletApiPaths.spotToFutures, from: 'Spot', to: 'Futures' },
  FuturesToSpot: { path: walletApiPaths.futuresToSpot, from: 'Futures', to: 'Spot' },
} as const;

/** Balances are refetched after every action, whether it worked or not (a failure may be stale data). */
function useRefreshWallet() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: walletQueryKeys.all });
}

export function useTransfer() {
  const refresh = useRefreshWallet();
  return useMutation({
    mutationFn: ({ direction, amount }: { direction: TransferDirection; amount: string }) => {
      const { path, from, to } = transferRoutes[direction];
      return api.post<ActionReply>(path, { from, to, coin: 'USDT', amount });
    },
    onSettled: refresh,
  });
}

export function useSwapToUsdt() {
  const refresh = useRefreshWallet();
  return useMutation({
    mutationFn: (input: { asset: string; amount: string }) =>
      api.post<ActionReply>(walletApiPaths.swapToUsdt, input),
    onSettled: refresh,
  });
}

/** The spot price of `asset` in USDT while the swap dialog is open (POST /api/liveprice). */
export function useLivePrice(asset: string | undefined) {
  const pair = `${asset ?? ''}USDT`;
  return useQuery({
    queryKey: ['wallet', 'live-price', pair],
    queryFn: ({ signal }) =>
      api.post<{ pair: string; price: string }>(marketApiPaths.spotPrice, { pair }, { signal }),
    // Assets without a listed USDT pair have no price to show (the server would answer 400).
    enabled: Boolean(asset) && SYMBOLS.includes(pair),
    refetchInterval: 3_000,
    staleTime: 0,
  });
}
