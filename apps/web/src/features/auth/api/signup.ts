import type { SignupInput } from '@gridbot/shared';
import { authApiPaths } from '@gridbot/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface MessageResponse {
  success: boolean;
  message: string;
}

/** Checks the fields and uniqueness and mails a code; the account is created by /api/verify-otp. */
export function signup(input: SignupInput): Promise<MessageResponse> {
  return api.post<MessageResponse>(authApiPaths.signup, input, { token: null });
}

export function useSignup() {
  return useMutation({ mutationFn: signup });
}
