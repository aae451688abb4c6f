import { accountApiPaths } from '@gridbot/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const disclaimerQueryKey = ['disclaimer'] as const;

interface DisclaimerStatus {
  agreed: boolean;
}

export function useDisclaimerStatus() {
  return useQuery({
    queryKey: disclaimerQueryKey,
    queryFn: ({ signal }) => api.get<DisclaimerStatus>(accountApiPaths.disclaimerCheck, { signal }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useAgreeDisclaimer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<{ success: boolean; agreed: boolean }>(accountApiPaths.disclaimer, { disclaimerAgree: true }),
    onSuccess: () => queryClient.setQueryData<DisclaimerStatus>(disclaimerQueryKey, { agreed: true }),
  });
}

/**
 * docs/spec/01-core-screens.md Dashboard: the dialog blocks until agreed, and a failed check shows it too. Screens use `open`
 * to pause their polling while it is up (docs/spec/01-core-screens.md §4).
 */
export function useDisclaimerGate() {
  const status = useDisclaimerStatus();
  const open = status.isError || (status.isSuccess && !status.data.agreed);
  return { open, checking: status.isPending };
}
