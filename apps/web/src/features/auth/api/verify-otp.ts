import type { AuthResponse, ResendOtpInput, VerifyOtpInput } from '@gridbot/shared';
import { authApiPaths } from '@gridbot/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { saveSession } from '../../../lib/session';
import { meQueryKey } from './me-query-key';
import type { MessageResponse } from './signup';

export function verifyOtp(input: VerifyOtpInput): Promise<AuthResponse> {
  return api.post<AuthResponse>(authApiPaths.verifyOtp, input, { token: null });
}

/** Creates the account; on success the user is signed in (docs/spec/02-bots-wallet-account.md §4). */
export function useVerifyOtp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyOtp,
    onSuccess: (response) => {
      saveSession(response.token, response.user);
      queryClient.setQueryData(meQueryKey, response.user);
    },
  });
}

export function resendOtp(input: ResendOtpInput): Promise<MessageResponse> {
  return api.post<MessageResponse>(authApiPaths.resendOtp, input, { token: null });
}

export function useResendOtp() {
  return useMutation({ mutationFn: resendOtp });
}
