import type { SessionUser } from '@gridbot/shared';
import { accountApiPaths } from '@gridbot/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { getStoredUser, getToken, saveUser } from '../../../lib/session';
import { meQueryKey } from './me-query-key';

export { meQueryKey };

export async function getMe(signal?: AbortSignal): Promise<SessionUser> {
  const token = getToken();
  const { user } = await api.get<{ user: SessionUser }>(accountApiPaths.me, { signal });
  // A logout while the request was under way must not bring the user data back.
  if (token && getToken() === token) saveUser(user);
  return user;
}

/**
 * The signed-in user. The stored copy renders the shell at once; it is marked stale so /api/me checks the
 * token on every guarded mount (a 401 there ends the session through the API client).
 */
export function meQueryOptions() {
  const stored = getStoredUser();
  return queryOptions({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => getMe(signal),
    initialData: stored ?? undefined,
    initialDataUpdatedAt: 0,
    staleTime: 60_000,
  });
}

export function useMe() {
  return useQuery(meQueryOptions());
}
