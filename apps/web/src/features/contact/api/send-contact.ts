import type { ContactInput } from '@gridbot/shared';
import { contactApiPaths } from '@gridbot/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function sendContact(input: ContactInput) {
  return api.post<{ success: boolean; message: string }>(contactApiPaths.send, input);
}

export function useSendContact() {
  return useMutation({ mutationFn: sendContact });
}
