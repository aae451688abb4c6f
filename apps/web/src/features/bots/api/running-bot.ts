import {
  type BotActionAnswer,
  type BotInfo,
  type BotPosition,
  type BotSummary,
  botApiPaths,
  botKindApiPaths,
  type MissingLotsChoice,
  type OrderBookPage,
  type ProfitBookAt,
  type ProtectionValues,
  type PurchasedQty,
  type SltpValues,
  walletApiPaths,
} from '@gridbot/shared';
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { accountQueryRoot } from '../../../lib/account-queries';
import { api } from '../../../lib/api-client';
import { BOT_REFRESH_MS, type BotKind } from './bot-paths';

export const botKeys = {
  all: ['bots'] as const,
  bot: (kind: BotKind, id: string) => ['bots', kind, id] as const,
  info: (kind: BotKind, id: string) => ['bots', kind, id, 'info'] as const,
  orderBook: (kind: BotKind, id: string, page: number) => ['bots', kind, id, 'orderbook', page] as const,
  purchasedQty: (kind: BotKind, id: string) => ['bots', kind, id, 'purchased'] as const,
  position: (kind: BotKind, id: string) => ['bots', kind, id, 'position'] as const,
  sltp: (id: string) => ['bots', 'sltp', id] as const,
  protection: (id: string) => ['bots', 'protection', id] as const,
  profitBook: (id: string) => ['bots', 'profitbook', id] as const,
};

const botInfoQuery = (kind: BotKind, id: string) =>
  queryOptions({
    queryKey: botKeys.info(kind, id),
    queryFn: ({ signal }) => api.post<BotInfo>(botKindApiPaths[kind].info, { botID: id }, { signal }),
  });

const orderBookQuery = (kind: BotKind, id: string, page: number) =>
  queryOptions({
    queryKey: botKeys.orderBook(kind, id, page),
    queryFn: ({ signal }) =>
      api.post<OrderBookPage>(botKindApiPaths[kind].orderBook, { botID: id, page }, { signal }),
  });

const purchasedQtyQuery = (kind: BotKind, id: string) =>
  queryOptions({
    queryKey: botKeys.purchasedQty(kind, id),
    queryFn: ({ signal }) =>
      api.post<PurchasedQty>(botKindApiPaths[kind].purchasedQty, { botID: id }, { signal }),
  });

/**
 * The bot page's first screen (the bot, its first page of orders, what it holds), asked for while the
 * page's code downloads (app/prefetch.ts); the hooks below then find the answers on their way.
 */
export function prefetchRunningBot(queryClient: QueryClient, kind: BotKind, id: string): void {
  void queryClient.prefetchQuery(botInfoQuery(kind, id));
  void queryClient.prefetchQuery(orderBookQuery(kind, id, 1));
  void queryClient.prefetchQuery(purchasedQtyQuery(kind, id));
}

export function useBotInfo(kind: BotKind, id: string) {
  return useQuery({ ...botInfoQuery(kind, id), refetchInterval: BOT_REFRESH_MS });
}

export function useOrderBook(kind: BotKind, id: string, page: number, enabled = true) {
  return useQuery({
    ...orderBookQuery(kind, id, page),
    refetchInterval: BOT_REFRESH_MS,
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function usePurchasedQty(kind: BotKind, id: string, enabled = true) {
  return useQuery({ ...purchasedQtyQuery(kind, id), refetchInterval: BOT_REFRESH_MS, enabled });
}

/** Future bots only (docs/spec/02-bots-wallet-account.md §7). */
export function usePosition(kind: BotKind, id: string, enabled: boolean) {
  return useQuery({
    queryKey: botKeys.position(kind, id),
    queryFn: ({ signal }) => api.post<BotPosition>(botKindApiPaths[kind].position, { botID: id }, { signal }),
    refetchInterval: BOT_REFRESH_MS,
    enabled,
  });
}

export function useSltp(id: string, botData: BotSummary | undefined, enabled: boolean) {
  return useQuery({
    queryKey: botKeys.sltp(id),
    queryFn: ({ signal }) => api.post<SltpValues>(botApiPaths.sltp, { botID: id, botData }, { signal }),
    refetchInterval: BOT_REFRESH_MS,
    enabled,
  });
}

export function useProtection(id: string, enabled: boolean) {
  return useQuery({
    queryKey: botKeys.protection(id),
    queryFn: ({ signal }) => api.post<ProtectionValues>(botApiPaths.overbuy, { botID: id }, { signal }),
    enabled,
  });
}

export function useProfitBookAt(id: string, enabled: boolean) {
  return useQuery({
    queryKey: botKeys.profitBook(id),
    queryFn: ({ signal }) => api.post<ProfitBookAt>(botApiPaths.profitBook, { botID: id }, { signal }),
    enabled,
  });
}

/** Everything about one bot is stale after an edit. */
/**
 * Refreshes the bot's page after an edit without waiting for it: the confirmation must not hang on a slow
 * refetch (mutation-level onSuccess promises delay the caller's callbacks).
 */
function useRefreshBot(kind: BotKind, id: string) {
  const queryClient = useQueryClient();
  return () => {
    void Promise.all([
      queryClient.invalidateQueries({ queryKey: botKeys.bot(kind, id) }),
      queryClient.invalidateQueries({ queryKey: botKeys.sltp(id) }),
      queryClient.invalidateQueries({ queryKey: botKeys.protection(id) }),
      queryClient.invalidateQueries({ queryKey: botKeys.profitBook(id) }),
    ]);
  };
}

export interface SltpEditInput {
  sellAllAndPausePrice: number | null;
  restartPrice: number | null;
  stoplossPrice: number | null;
}

export function useSltpEdit(kind: BotKind, id: string) {
  const refresh = useRefreshBot(kind, id);
  return useMutation({
    mutationFn: (input: SltpEditInput) =>
      api.post<BotActionAnswer>(botApiPaths.sltpEdit, { botID: id, ...input }),
    onSuccess: refresh,
  });
}

export function useOverbuyEdit(kind: BotKind, id: string) {
  const refresh = useRefreshBot(kind, id);
  return useMutation({
    mutationFn: (input: { overbuyProtectionValue: number | null; protectionActive: boolean }) =>
      api.post<BotActionAnswer>(botApiPaths.overbuyEdit, { botID: id, ...input }),
    onSuccess: refresh,
  });
}

export function useProfitBookEdit(kind: BotKind, id: string) {
  const refresh = useRefreshBot(kind, id);
  return useMutation({
    mutationFn: (profitBookValue: number | null) =>
      api.post<BotActionAnswer>(botApiPaths.profitBookEdit, { botID: id, profitBookValue }),
    onSuccess: refresh,
  });
}

export function useStopBot(kind: BotKind, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sell, botData, totalPnl }: { sell: boolean; botData: BotSummary; totalPnl: number }) =>
      sell
        ? api.post<BotActionAnswer>(botKindApiPaths[kind].stopWithSell, { botID: id, botData, totalPnl })
        : api.post<BotActionAnswer>(botKindApiPaths[kind].stop, { botID: id, botData }),
    // A stop cancels the bot's orders and may sell its coins or close its position: the account changed too
    // (read again where it is on screen, without holding up the stop's answer).
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: accountQueryRoot });
      return queryClient.invalidateQueries({ queryKey: botKeys.all });
    },
  });
}

/** Resumes a bot the runtime paused (keys missing, orders failing), once the cause is fixed. */
export function useResumeBot(kind: BotKind, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    /** `missingLots`: what to do with coins sold outside the platform, for a bot paused over them. */
    mutationFn: (missingLots?: MissingLotsChoice) =>
      api.post<{ message: string }>(botKindApiPaths[kind].resume, { botID: id, missingLots }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: botKeys.all }),
  });
}

/** Resumes a bot its own pause price paused: it goes Live and buys grid 1 at the market price. */
export function useResumePausedBot(kind: BotKind, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ message: string }>(botKindApiPaths[kind].resumePaused, { botID: id }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: botKeys.all }),
  });
}

/** Adds USDT (futures: margin) to a running bot's investment. */
export function useAddFunds(kind: BotKind, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (amount: string) =>
      api.post<{ message: string; investment: string }>(botKindApiPaths[kind].addFunds, {
        botID: id,
        amount,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: botKeys.all }),
  });
}

/** The free USDT of the wallet a bot trades from (what running bots hold is not free), while a dialog is open. */
export function useFreeUsdt(category: 'Spot' | 'Future', enabled: boolean) {
  const future = category === 'Future';
  return useQuery({
    queryKey: ['bots', 'free-usdt', category] as const,
    queryFn: async ({ signal }) => {
      if (future) {
        const answer = await api.get<{ futuresusdtAmount: string | null }>(walletApiPaths.futuresBalance, {
          signal,
        });
        return answer.futuresusdtAmount;
      }
      const answer = await api.get<{ spotusdtAmount: string | null }>(walletApiPaths.spotBalance, { signal });
      return answer.spotusdtAmount;
    },
    enabled,
  });
}
