import type { NotificationList, NotificationSettings, NotificationSettingsInput } from '@gridbot/shared';
import { notificationApiPaths } from '@gridbot/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** The bell polls as every page does; the push channel refetches it as soon as an event arrives. */
export const NOTIFICATIONS_REFRESH_MS = 30_000;

export const notificationKeys = {
  all: ['notifications'] as const,
  list: ['notifications', 'list'] as const,
  settings: ['notifications', 'settings'] as const,
};

export function useNotifications() {
  return useQuery({
    queryKey: notificationKeys.list,
    queryFn: ({ signal }) => apiRequest<NotificationList>(notificationApiPaths.list, { signal }),
    refetchInterval: NOTIFICATIONS_REFRESH_MS,
  });
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) =>
      apiRequest<{ unread: number }>(notificationApiPaths.markRead, {
        method: 'POST',
        body: ids ? { ids } : {},
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationKeys.list }),
  });
}

export function useNotificationSettings() {
  return useQuery({
    queryKey: notificationKeys.settings,
    queryFn: ({ signal }) => apiRequest<NotificationSettings>(notificationApiPaths.settings, { signal }),
  });
}

function useSettingsMutation<T>(request: (input: T) => Promise<NotificationSettings>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (settings) => client.setQueryData(notificationKeys.settings, settings),
  });
}

export function useSaveNotificationSettings() {
  return useSettingsMutation((input: NotificationSettingsInput) =>
    apiRequest<NotificationSettings>(notificationApiPaths.settings, { method: 'PUT', body: input }),
  );
}

export function useRotateWebhookSecret() {
  return useSettingsMutation(() =>
    apiRequest<NotificationSettings>(notificationApiPaths.webhookSecret, { method: 'POST', body: {} }),
  );
}

export function useUnlinkTelegram() {
  return useSettingsMutation(() =>
    apiRequest<NotificationSettings>(notificationApiPaths.telegram, { method: 'DELETE' }),
  );
}

export function useTestWebhook() {
  return useMutation({
    mutationFn: () =>
      apiRequest<{ ok: boolean; message: string }>(notificationApiPaths.webhookTest, {
        method: 'POST',
        body: {},
      }),
  });
}

export interface TelegramLink {
  code: string;
  expiresAt: string;
  botUsername: string | null;
  link: string | null;
}

export function useTelegramLinkCode() {
  return useMutation({
    mutationFn: () =>
      apiRequest<TelegramLink>(notificationApiPaths.telegramLink, { method: 'POST', body: {} }),
  });
}
