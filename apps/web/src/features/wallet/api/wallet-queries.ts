import { botKindApiPaths, type CommittedFunds, walletApiPaths } from '@gridbot/shared';
import { useQuery } from '@tanstack/react-query';
import { accountQueryRoot } from '../../../lib/account-queries';
import { api } from '../../../lib/api-client';

/** Every wallet query starts with the account's root, so one invalidation refreshes them all after an action. */
export const walletQueryKeys = {
  all: accountQueryRoot,
  spotBalance: ['wallet', 'spot-balance'] as const,
  futuresBalance: ['wallet', 'futures-balance'] as const,
  summary: ['wallet', 'summary'] as const,
  assets: (market: WalletMarket) => ['wallet', 'assets', market] as const,
  committed: ['wallet', 'committed'] as const,
};

export type WalletMarket = 'spot' | 'futures';

/** One row of the assets tables; amounts are decimal strings, `value` is null without a USDT price. */
export interface WalletAsset {
  asset: string;
  balance: string;
  /** What is not held by running bots: what can be swapped or moved. */
  free: string;
  /** What running bots and cycles hold of it. */
  committed?: string;
  value: string | null;
}

/** Balances move with prices and running bots; the dashboard polls like the other live screens (10 s). */
const REFRESH_MS = 10_000;

/**
 * On Binance while no API keys are bound, the balance reads answer `connected: false` and no figure (the
 * screen polls them, so that is data rather than a 400 on every poll).
 */
interface Keyless {
  connected?: false;
}

export function useSpotBalance() {
  return useQuery({
    queryKey: walletQueryKeys.spotBalance,
    queryFn: ({ signal }) =>
      api.get<{ spotusdtAmount: string | null; venue?: 'paper' | 'binance' | 'bybit' | 'okx' } & Keyless>(
        walletApiPaths.spotBalance,
        { signal },
      ),
    refetchInterval: REFRESH_MS,
  });
}

export function useFuturesBalance() {
  return useQuery({
    queryKey: walletQueryKeys.futuresBalance,
    queryFn: ({ signal }) =>
      api.get<{ futuresusdtAmount: string | null } & Keyless>(walletApiPaths.futuresBalance, { signal }),
    refetchInterval: REFRESH_MS,
  });
}

/** GET /api/pichart: `usdt` is the total, `availableBalance` the transferable spot USDT (docs/spec/02-bots-wallet-account.md §7). */
export function useWalletSummary() {
  return useQuery({
    queryKey: walletQueryKeys.summary,
    queryFn: ({ signal }) =>
      api.get<{ usdt: string | null; availableBalance: string | null } & Keyless>(
        botKindApiPaths.multigrid.pieChart,
        { signal },
      ),
    refetchInterval: REFRESH_MS,
  });
}

export function useWalletAssets(market: WalletMarket) {
  return useQuery({
    queryKey: walletQueryKeys.assets(market),
    queryFn: ({ signal }) =>
      api.get<{ assets: WalletAsset[] }>(
        market === 'spot' ? walletApiPaths.spotAssets : walletApiPaths.futuresAssets,
        {
          signal,
        },
      ),
    select: (data) => data.assets,
    refetchInterval: REFRESH_MS,
  });
}

/** Whether a balance read says no exchange keys are bound: the screen points to API Setting instead. */
export function isKeyless(data: Keyless | undefined): boolean {
  return data?.connected === false;
}

/** GET /api/committedfunds: what each running bot and cycle holds of the wallet. */
export function useCommittedFunds() {
  return useQuery({
    queryKey: walletQueryKeys.committed,
    queryFn: ({ signal }) => api.get<CommittedFunds>(walletApiPaths.committedFunds, { signal }),
    refetchInterval: REFRESH_MS,
  });
}
