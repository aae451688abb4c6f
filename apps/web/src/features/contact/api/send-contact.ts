import type { ContactInput } from '@gridbot/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function sendContact(input: ContactInput) {
  return api.post<{ success: boolean; message: string }>('/api/contact', input);
}

export function useSendContact() {
  return useMutation({ mutationFn: sendContact });
}
