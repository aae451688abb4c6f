import type {
  ChangePasswordInput,
  SecurityLogPage,
  SessionInfo,
  TwoFactorSetup,
  TwoFactorStatus,
} from '@gridbot/shared';
import { pathWith, securityApiPaths } from '@gridbot/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const securityKeys = {
  all: ['security'] as const,
  sessions: ['security', 'sessions'] as const,
  twoFactor: ['security', '2fa'] as const,
  log: (page: number) => ['security', 'log', page] as const,
};

interface Reply {
  success: boolean;
  message: string;
}

export function useSessions() {
  return useQuery({
    queryKey: securityKeys.sessions,
    queryFn: ({ signal }) => api.get<{ sessions: SessionInfo[] }>(securityApiPaths.sessions, { signal }),
  });
}

export function useSecurityLog(page: number) {
  return useQuery({
    queryKey: securityKeys.log(page),
    queryFn: ({ signal }) => api.get<SecurityLogPage>(`${securityApiPaths.log}?page=${page}`, { signal }),
    placeholderData: (previous) => previous,
  });
}

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: securityKeys.twoFactor,
    queryFn: ({ signal }) => api.get<TwoFactorStatus>(securityApiPaths.twoFactor, { signal }),
  });
}

/** Every change on the page can add a log entry or end a session: the whole page refetches. */
function useSecurityMutation<I, O>(request: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => client.invalidateQueries({ queryKey: securityKeys.all }),
  });
}

export const useEndSession = () =>
  useSecurityMutation((id: string) => api.post<Reply>(pathWith(securityApiPaths.logoutSession, { id })));

export const useEndOtherSessions = () =>
  useSecurityMutation(() => api.post<Reply>(securityApiPaths.logoutOthers));

export const useChangePassword = () =>
  useSecurityMutation((input: ChangePasswordInput) => api.post<Reply>(securityApiPaths.password, input));

export const useStartTwoFactor = () =>
  useSecurityMutation(() => api.post<TwoFactorSetup>(securityApiPaths.twoFactorSetup));

export const useEnableTwoFactor = () =>
  useSecurityMutation((code: string) =>
    api.post<Reply & { recoveryCodes: string[] }>(securityApiPaths.twoFactorEnable, { code }),
  );

export const useDisableTwoFactor = () =>
  useSecurityMutation((code: string) => api.post<Reply>(securityApiPaths.twoFactorDisable, { code }));
