import type {
  DepositListenData,
  DepositOptions,
  DepositRecord,
  LevelRewardsData,
  PlatformPage,
  RewardRecord,
  SubscriptionPlansData,
  SubscriptionRecord,
  WithdrawHistoryPage,
} from '@gridbot/shared';
import { platformApiPaths } from '@gridbot/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { listBody, platformCall, platformPost } from './platform-client';

export const platformKeys = {
  all: ['platform'] as const,
  plans: ['platform', 'plans'] as const,
  list: (name: string, page: number) => ['platform', 'list', name, page] as const,
  levels: ['platform', 'levels'] as const,
};

/** A paged platform list (docs/spec/02-bots-wallet-account.md §7: `{filters, limit: 10, page}` → `{records, current, pages}`). */
function pagedList<T>(name: string, path: string, page: number) {
  return queryOptions({
    queryKey: platformKeys.list(name, page),
    queryFn: ({ signal }) => platformPost<PlatformPage<T>>(path, listBody(page), signal),
    placeholderData: keepPreviousData,
  });
}

export function useSubscriptionPlans() {
  return useQuery({
    queryKey: platformKeys.plans,
    queryFn: ({ signal }) => platformPost<SubscriptionPlansData>(platformApiPaths.plans, {}, signal),
    select: (data) => data.plans,
  });
}

export function useSubscriptionHistory(page: number) {
  return useQuery(pagedList<SubscriptionRecord>('subscriptions', platformApiPaths.subscriptions, page));
}

export function useDepositHistory(page: number, refetchInterval: number | false = false) {
  return useQuery({
    ...pagedList<DepositRecord>('deposits', platformApiPaths.deposits, page),
    refetchInterval,
  });
}

export function useWithdrawHistory(page: number) {
  return useQuery(
    queryOptions({
      queryKey: platformKeys.list('withdrawals', page),
      queryFn: ({ signal }) =>
        platformPost<WithdrawHistoryPage>(platformApiPaths.withdrawals, listBody(page), signal),
      placeholderData: keepPreviousData,
    }),
  );
}

export function useLevelRewards() {
  return useQuery({
    queryKey: platformKeys.levels,
    queryFn: ({ signal }) => platformPost<LevelRewardsData>(platformApiPaths.levelRewards, {}, signal),
    select: (data) => data.rewards,
  });
}

export function useRewardHistory(page: number) {
  return useQuery(pagedList<RewardRecord>('rewards', platformApiPaths.rewardHistory, page));
}

/**
 * Every platform action moves money: afterwards the platform lists and the session's user data (which
 * carries the balances, docs/spec/02-bots-wallet-account.md §3) are read again, whether the action worked or not.
 */
function usePlatformAction<I, O>(call: (input: I) => Promise<O>, onAccountChanged: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => {
      onAccountChanged();
      return queryClient.invalidateQueries({ queryKey: platformKeys.all });
    },
  });
}

export function useSubscribe(onAccountChanged: () => void) {
  return usePlatformAction(
    (planId: string) => platformCall<unknown>(platformApiPaths.subscribe, { planId }),
    onAccountChanged,
  );
}

export function useStartListening() {
  return useMutation({
    mutationFn: () => platformCall<DepositListenData>(platformApiPaths.depositListen),
  });
}

/** 'sync status': the server scans the chain at once and answers with a msg. */
export function useSyncDeposits(onAccountChanged: () => void) {
  return usePlatformAction(
    () => platformCall<{ credited?: number } | null>(platformApiPaths.depositSync),
    onAccountChanged,
  );
}

export function useCreateWithdrawal(onAccountChanged: () => void) {
  return usePlatformAction(
    (input: { amount: string; toAddress: string; code?: string }) =>
      platformCall<unknown>(platformApiPaths.withdraw, input),
    onAccountChanged,
  );
}

export function useSwapReward(onAccountChanged: () => void) {
  return usePlatformAction(
    (input: { amount: string }) => platformCall<unknown>(platformApiPaths.swapReward, input),
    onAccountChanged,
  );
}

/** Which ways to deposit the server offers (chain watching, a simulated deposit on paper installs). */
export function useDepositOptions() {
  return useQuery({
    queryKey: ['platform', 'deposit-options'],
    queryFn: ({ signal }) => platformPost<DepositOptions>(platformApiPaths.depositOptions, {}, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** A simulated deposit (paper installs only), credited like a chain deposit. */
export function useSimulatedDeposit(onAccountChanged: () => void) {
  return usePlatformAction(
    (input: { token: string; amount: string }) =>
      platformCall<unknown>(platformApiPaths.depositSimulate, input),
    onAccountChanged,
  );
}
