import { accountApiPaths } from '@gridbot/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface AccountEmail {
  email: string;
  username: string;
}

/** E-mail and username of the profile menu; the header polls them every 10 s (docs/spec/01-core-screens.md §4). */
export function useAccountEmail() {
  return useQuery({
    queryKey: ['email'],
    queryFn: ({ signal }) => api.get<AccountEmail>(accountApiPaths.email, { signal }),
    refetchInterval: 10_000,
  });
}
