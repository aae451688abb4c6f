import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bots } from './bots';

/**
 * Who runs a Live or Pause bot in scale-out mode (docs/architecture.md §1): one row per active bot (grid bots and
 * cycles alike). `owner` is a worker id or null (free); a lease whose `expires_at` has passed is free too.
 * Workers claim rows with `FOR UPDATE SKIP LOCKED` and renew their own on a heartbeat. Unused by ROLE=all.
 * No index on `expires_at` and half-full pages (migration 0014): a renewal of thousands of rows then updates
 * them in place (HOT) instead of writing every index; claims scan the table, which is one small row per bot.
 */
export const botLeases = pgTable(
  'bot_leases',
  {
    botId: uuid('bot_id')
      .primaryKey()
      .references(() => bots.id, { onDelete: 'cascade' }),
    owner: text('owner'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
  },
  (t) => [index('bot_leases_owner_idx').on(t.owner)],
);

/** Bot workers alive now (heartbeat within a lease time): the fair share of bots is active bots ÷ live workers. */
export const workers = pgTable('workers', {
  id: text('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});
