/** The notification centre's and its channels' paths, written once for the server's routes and the web's calls (docs/architecture.md §4). */
export const notificationApiPaths = {
  list: '/api/notifications',
  markRead: '/api/notifications/read',
  /** GET and PUT. */
  settings: '/api/notifications/settings',
  webhookSecret: '/api/notifications/webhook/secret',
  webhookTest: '/api/notifications/webhook/test',
  telegramLink: '/api/notifications/telegram/link',
  /** DELETE: unlinks the chat. */
  telegram: '/api/notifications/telegram',
} as const;

/** Ours: the push channel's WebSocket, which carries bot and notification updates to a signed-in tab. */
export const PUSH_CHANNEL_PATH = '/api/push';
