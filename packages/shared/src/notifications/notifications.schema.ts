import { z } from 'zod';

/** Events that need the user's attention, each written to the outbox with the change that caused it. */
export const notificationEventTypes = [
  'bot_stopped',
  'bot_paused',
  'order_failures',
  'cycle_completed',
  'deposit_credited',
  'withdrawal_approved',
  'withdrawal_sent',
  'withdrawal_rejected',
  'profit_limit_reached',
  'new_device_login',
  'api_key_changed',
  'withdrawal_requested',
] as const;
export type NotificationEventType = (typeof notificationEventTypes)[number];

/** Where a notification can go besides the bell (which shows every event). */
export const notificationChannels = ['email', 'telegram', 'webhook'] as const;
export type NotificationChannel = (typeof notificationChannels)[number];

/** Labels of the events, for the settings page, the bell and the messages sent. */
export const notificationEventLabels: Record<NotificationEventType, string> = {
  bot_stopped: 'Bot stopped (stoploss, profit book, liquidation)',
  bot_paused: 'Bot paused',
  order_failures: 'Orders keep failing',
  cycle_completed: 'Cycle completed',
  deposit_credited: 'Deposit credited',
  withdrawal_approved: 'Withdrawal approved',
  withdrawal_sent: 'Withdrawal sent',
  withdrawal_rejected: 'Withdrawal rejected',
  profit_limit_reached: 'Profit limit reached',
  new_device_login: 'Login from a new device',
  api_key_changed: 'API key changed',
  withdrawal_requested: 'Withdrawal requested',
};

/**
 * Security events always go by e-mail as well, whatever the user's routing: someone who took over the
 * account could otherwise turn the warning off first.
 */
export const alwaysEmailedEvents: readonly NotificationEventType[] = [
  'new_device_login',
  'api_key_changed',
  'withdrawal_requested',
];

export const notificationMessages = {
  webhookUrl: 'Enter an https:// URL (http:// only for localhost)',
  telegramNotConfigured: 'Telegram notifications are not available on this platform',
  webhookMissing: 'Save a webhook URL first',
  webhookPrivate: 'This URL points to a private or local address. Use a public https:// URL.',
} as const;

/** Which channels each event goes to; an event not listed goes nowhere but the bell. */
export const notificationRoutingSchema = z.partialRecord(
  z.enum(notificationEventTypes),
  z.array(z.enum(notificationChannels)).max(notificationChannels.length),
);
export type NotificationRouting = z.infer<typeof notificationRoutingSchema>;

// https anywhere; plain http only to this machine, for a receiver under local testing, which the server
// accepts only with WEBHOOK_ALLOW_PRIVATE=true (like every private target). zod parses the URL, so this
// package needs no URL global (the engine compiles it without DOM or Node types).
const LOOPBACK_HTTP = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|\?|#|$)/i;
const webhookUrlSchema = z
  .string()
  .trim()
  .max(500, notificationMessages.webhookUrl)
  .pipe(z.url({ protocol: /^https?$/, error: notificationMessages.webhookUrl }))
  .refine(
    (value) => /^https:\/\//i.test(value) || LOOPBACK_HTTP.test(value),
    notificationMessages.webhookUrl,
  );

/** PUT /api/notifications/settings */
export const notificationSettingsInputSchema = z.object({
  routing: notificationRoutingSchema,
  /** null removes the webhook. */
  webhookUrl: webhookUrlSchema.nullable(),
});
export type NotificationSettingsInput = z.infer<typeof notificationSettingsInputSchema>;

export interface ChannelHealth {
  /** Set once deliveries on the channel failed every retry; cleared by the next success. */
  failing: boolean;
  lastError: string | null;
}

/** GET /api/notifications/settings */
export interface NotificationSettings {
  routing: NotificationRouting;
  email: string;
  telegram: { available: boolean; linked: boolean; botUsername: string | null };
  webhookUrl: string | null;
  /** The HMAC-SHA256 key of the webhook's `X-Gridbot-Signature`, shown to its owner to verify bodies. */
  webhookSecret: string | null;
  health: Record<NotificationChannel, ChannelHealth>;
}

/** One event in the bell. `botId` links to the bot or cycle page. */
export interface NotificationItem {
  id: string;
  type: NotificationEventType;
  title: string;
  body: string;
  botId: string | null;
  botType: 'multigrid' | 'scalping' | 'cycle' | 'range' | null;
  createdAt: string;
  read: boolean;
}

/** GET /api/notifications */
export interface NotificationList {
  unread: number;
  items: NotificationItem[];
}

/** Messages on the push socket, server to browser. */
export type PushMessage =
  | { type: 'ready' }
  | { type: 'price'; market: 'spot' | 'future'; symbol: string; price: string }
  | {
      type: 'bot';
      botId: string;
      /** fill: an order-book row was added; state: status, pause reason or stop changed. */
      change: 'fill' | 'state';
      status?: 'Live' | 'Pause' | 'Stopping' | 'Stopped';
      /** When the change committed on the server, ms since the epoch. */
      at?: number;
    }
  | { type: 'notification'; item: NotificationItem };

/** Messages on the push socket, browser to server. */
export const pushClientMessageSchema = z.discriminatedUnion('type', [
  // The bearer token goes in the first message, never in the URL (URLs end up in access logs).
  z.object({ type: z.literal('auth'), token: z.string().regex(/^[A-Za-z0-9_-]{20,200}$/) }),
  z.object({
    type: z.literal('prices'),
    pairs: z
      .array(z.object({ market: z.enum(['spot', 'future']), symbol: z.string().regex(/^[A-Z0-9]{2,20}$/) }))
      .max(60),
  }),
]);
export type PushClientMessage = z.infer<typeof pushClientMessageSchema>;
