import type { StrategyKind } from '@gridbot/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  copySystemStrategy,
  createStrategy,
  deleteStrategy,
  editStrategy,
  getOwnStrategies,
  getStrategy,
  getSystemStrategies,
  type StrategyPayload,
} from './strategy-api';

export const strategyKeys = {
  all: ['strategies'] as const,
  own: (kind: StrategyKind) => ['strategies', kind, 'own'] as const,
  system: (kind: StrategyKind) => ['strategies', kind, 'system'] as const,
  detail: (kind: StrategyKind, name: string) => ['strategies', kind, 'detail', name.toLowerCase()] as const,
};

export function useOwnStrategies(kind: StrategyKind) {
  return useQuery({
    queryKey: strategyKeys.own(kind),
    queryFn: ({ signal }) => getOwnStrategies(kind, signal),
    select: (data) => data.strategies,
  });
}

export function useSystemStrategies(kind: StrategyKind) {
  return useQuery({
    queryKey: strategyKeys.system(kind),
    queryFn: ({ signal }) => getSystemStrategies(kind, signal),
    select: (data) => data.strategies,
    staleTime: 60_000,
  });
}

export function useStrategy(kind: StrategyKind, name: string) {
  return useQuery({
    queryKey: strategyKeys.detail(kind, name),
    queryFn: ({ signal }) => getStrategy(kind, name, signal),
    // The form is filled once from this; a background refetch must not overwrite what the user types.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/** Every strategy list and detail is stale after a change (Start Bot reads them too). */
function useInvalidateStrategies() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: strategyKeys.all });
}

export function useCreateStrategy(kind: StrategyKind) {
  const invalidate = useInvalidateStrategies();
  return useMutation({
    mutationFn: (payload: StrategyPayload) => createStrategy(kind, payload),
    onSuccess: invalidate,
  });
}

export function useEditStrategy(kind: StrategyKind) {
  const invalidate = useInvalidateStrategies();
  return useMutation({
    mutationFn: (payload: StrategyPayload) => editStrategy(kind, payload),
    onSuccess: invalidate,
  });
}

export function useDeleteStrategy(kind: StrategyKind) {
  const invalidate = useInvalidateStrategies();
  return useMutation({ mutationFn: (name: string) => deleteStrategy(kind, name), onSuccess: invalidate });
}

export function useCopySystemStrategy(kind: StrategyKind) {
  const invalidate = useInvalidateStrategies();
  return useMutation({ mutationFn: (name: string) => copySystemStrategy(kind, name), onSuccess: invalidate });
}
