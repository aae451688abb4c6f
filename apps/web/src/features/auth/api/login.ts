import type { AuthResponse, LoginInput } from '@gridbot/shared';
import { authApiPaths } from '@gridbot/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { saveSession } from '../../../lib/session';
import { meQueryKey } from './me-query-key';

export function login(input: LoginInput): Promise<AuthResponse> {
  return api.post<AuthResponse>(authApiPaths.login, input, { token: null });
}

/** Logs in and keeps the session (token and user in localStorage, user in the query cache). */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (response) => {
      saveSession(response.token, response.user);
      queryClient.setQueryData(meQueryKey, response.user);
    },
  });
}
