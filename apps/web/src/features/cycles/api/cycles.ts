import {
  cycleApiPaths,
  type EditCycleInput,
  type LiveCyclesResponse,
  livePricePath,
  type MissingLotsChoice,
  type StartCycleInput,
} from '@gridbot/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { dropStartChecks } from '../../../lib/start-check';

/** docs/spec/02-bots-wallet-account.md §9: live cycles refresh every 10 s. */
export const CYCLES_REFRESH_MS = 10_000;
/** The suggestion price is read again this often while the form is open. */
const LIVE_PRICE_REFRESH_MS = 5_000;

export const cycleKeys = {
  all: ['cycles'] as const,
  live: ['cycles', 'live'] as const,
  price: (category: 'Spot' | 'Future', pair: string) => ['cycles', 'live-price', category, pair] as const,
};

/** GET /api/livecycles, every 10 s. */
export function useLiveCycles() {
  return useQuery({
    queryKey: cycleKeys.live,
    queryFn: ({ signal }) => api.get<LiveCyclesResponse>(cycleApiPaths.live, { signal }),
    select: (data) => data.cycles,
    refetchInterval: CYCLES_REFRESH_MS,
  });
}

/**
 * The pair's price on the chosen market for the suggested values (docs/spec/02-bots-wallet-account.md §7: POST /api/liveprice or
 * /api/futureliveprice {pair}). The Start Bot form has the same tiny fetcher; features do not share code.
 */
export function useCyclePrice(pair: string, category: 'Spot' | 'Future') {
  return useQuery({
    queryKey: cycleKeys.price(category, pair),
    queryFn: ({ signal }) =>
      api.post<{ pair: string; price: string | number }>(
        livePricePath(category === 'Future' ? 'future' : 'spot'),
        { pair },
        { signal },
      ),
    select: (data) => Number(data.price),
    enabled: pair !== '',
    refetchInterval: LIVE_PRICE_REFRESH_MS,
  });
}

/** Refreshes the list without making the caller's toast wait for the refetch. */
function useRefreshCycles() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: cycleKeys.live });
  };
}

export function useStartCycle() {
  const queryClient = useQueryClient();
  const refresh = useRefreshCycles();
  return useMutation({
    mutationFn: (payload: StartCycleInput) => api.post<{ message: string }>(cycleApiPaths.start, payload),
    onSuccess: () => {
      refresh();
      void dropStartChecks(queryClient);
    },
  });
}

export function useEditCycle() {
  const refresh = useRefreshCycles();
  return useMutation({
    mutationFn: (payload: EditCycleInput) => api.post<{ message: string }>(cycleApiPaths.edit, payload),
    onSuccess: refresh,
  });
}

export function useStopCycle() {
  const refresh = useRefreshCycles();
  return useMutation({
    mutationFn: ({ cycleId, sell }: { cycleId: string; sell: boolean }) =>
      // `stopping`: the sale is still under way (202 "stop requested"); the cycle shows Stopping meanwhile.
      api.post<{ message: string; stopping?: boolean }>(
        sell ? cycleApiPaths.stopWithSell : cycleApiPaths.stop,
        {
          cycle_id: cycleId,
        },
      ),
    onSettled: refresh,
  });
}

/**
 * Resumes a cycle the runtime paused (keys missing, orders failing), once the cause is fixed; `missingLots`:
 * what to do with coins sold outside the platform, for a cycle paused over them.
 */
export function useResumeCycle() {
  const refresh = useRefreshCycles();
  return useMutation({
    mutationFn: ({ cycleId, missingLots }: { cycleId: string; missingLots?: MissingLotsChoice }) =>
      api.post<{ message: string; resuming?: boolean }>(cycleApiPaths.resume, {
        cycle_id: cycleId,
        missingLots,
      }),
    onSettled: refresh,
  });
}
