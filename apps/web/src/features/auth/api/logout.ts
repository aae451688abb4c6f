import { authApiPaths } from '@gridbot/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../../lib/api-client';
import { clearSession, getToken } from '../../../lib/session';

/**
 * docs/spec/01-core-screens.md §4: logout clears the stored token and user data, calls the logout endpoint (which revokes the
 * token server-side) and goes to '/'. A failing call is only logged (docs/spec/01-core-screens.md §8).
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(() => {
    const token = getToken();
    clearSession();
    if (token) {
      api.post(authApiPaths.logout, undefined, { token, on401: 'throw' }).catch((error: unknown) => {
        console.error('Logout failed', error);
      });
    }
    // Leave the guarded screens first, then drop their cached data (clearing first would refetch it).
    void Promise.resolve(navigate('/', { replace: true })).then(() => queryClient.clear());
  }, [navigate, queryClient]);
}
