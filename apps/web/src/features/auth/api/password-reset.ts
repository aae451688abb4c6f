import type { ForgotPasswordInput, ResetPasswordInput } from '@gridbot/shared';
import { authApiPaths, pathWith } from '@gridbot/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageResponse } from './signup';

export function forgotPassword(input: ForgotPasswordInput): Promise<MessageResponse> {
  return api.post<MessageResponse>(authApiPaths.forgotPassword, input, { token: null });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}

export function resetPassword({ token, ...input }: ResetPasswordInput & { token: string }) {
  return api.post<MessageResponse>(pathWith(authApiPaths.resetPassword, { token }), input, {
    token: null,
  });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
