import { sql } from 'drizzle-orm';
import { bigint, index, pgSequence, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bots } from './bots';

/** Fencing tokens of the leases: one sequence for all, so no token is ever handed out twice (a row deleted and
 * created again starts from a fresh one). */
export const botLeaseEpochs = pgSequence('bot_lease_epochs');

/**
 * Who runs a Live or Pause bot in scale-out mode (docs/architecture.md §1): one row per active bot (grid bots and
 * cycles alike). `owner` is a worker id or null (free); a lease whose `expires_at` has passed is free too.
 * Workers claim rows with `FOR UPDATE SKIP LOCKED` and renew their own on a heartbeat. Unused by ROLE=all.
 * No index on `expires_at` and half-full pages (migration 0014): a renewal of thousands of rows then updates
 * them in place (HOT) instead of writing every index; claims scan the table, which is one small row per bot.
 * `epoch` is the lease's fencing token: a claim by another worker (or of a free row) takes a new one, and every
 * runtime write of the bot checks, in its own transaction, that its writer's token is still the row's
 * (worker/lease-fence.ts, `staleFences` in worker/leases.repo.ts). Its unique index makes it a key column for
 * PostgreSQL's row locks: the write's FOR KEY SHARE lock holds a claim back until the write commits, while
 * renewals (expires_at only) never wait.
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
    epoch: bigint('epoch', { mode: 'number' }).notNull().default(sql`nextval('bot_lease_epochs')`),
  },
  (t) => [index('bot_leases_owner_idx').on(t.owner), uniqueIndex('bot_leases_epoch_idx').on(t.epoch)],
);

/** Bot workers alive now (heartbeat within a lease time): the fair share of bots is active bots ÷ live workers. */
export const workers = pgTable('workers', {
  id: text('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});
