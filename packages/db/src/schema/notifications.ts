import type { ChannelHealth, NotificationChannel, NotificationRouting } from '@gridbot/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The notification outbox: one row per event that needs the user, inserted by database triggers in the
 * same transaction as the change that caused it (migration `notification_triggers`), so a crash can
 * neither lose one nor invent one. The bell lists these rows; `fanned_out` turns true in the transaction
 * that writes the event's deliveries, so each channel gets exactly one delivery row.
 */
export const notificationEvents = pgTable(
  'notification_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    /** The bot or cycle the event is about (no foreign key: the event outlives nothing, but keeps its link). */
    botId: uuid('bot_id'),
    /** Figures of the event (symbol, reason, amount…), written by the trigger. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
    fannedOut: boolean('fanned_out').notNull().default(false),
  },
  (t) => [
    index('notification_events_user_idx').on(t.userId, t.id),
    index('notification_events_pending_idx').on(t.id).where(sql`${t.fannedOut} = false`),
  ],
);

/**
 * One event on one channel. Claimed by a dispatcher for a short while (`claimed_until`) so two processes
 * never send it at once; retried with backoff until sent or out of attempts.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => notificationEvents.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    channel: text('channel').$type<NotificationChannel>().notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    unique('notification_deliveries_event_channel_key').on(t.eventId, t.channel),
    index('notification_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);

/** A user's choices: which events on which channel, the linked Telegram chat, the webhook. */
export const notificationSettings = pgTable('notification_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  routing: jsonb('routing').$type<NotificationRouting>().notNull().default({}),
  telegramChatId: text('telegram_chat_id'),
  /** SHA-256 of the one-time code the user sends the platform's bot to link a chat. */
  telegramLinkCodeHash: text('telegram_link_code_hash').unique(),
  telegramLinkExpiresAt: timestamp('telegram_link_expires_at', { withTimezone: true }),
  webhookUrl: text('webhook_url'),
  /** The webhook's HMAC key, sealed like API secrets. */
  webhookSecretSealed: text('webhook_secret_sealed'),
  health: jsonb('health').$type<Partial<Record<NotificationChannel, ChannelHealth>>>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** How far the Telegram link poller has read the bot's updates (getUpdates `offset`). */
export const telegramCursor = pgTable('telegram_cursor', {
  id: integer('id').primaryKey().default(1),
  nextUpdateId: integer('next_update_id').notNull(),
});
