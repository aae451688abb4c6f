import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A user's exchange API key pair. The secret is sealed with AES-256-GCM by the server (docs/trading-rules.md §3) and never
 * leaves it; only the key itself is shown back (API Setting).
 */
export const apiKeys = pgTable('api_keys', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  apiKey: text('api_key').notNull(),
  secretSealed: text('secret_sealed').notNull(),
  /** Which exchange the key belongs to: the user's orders go there. Keys bound before the choice are Binance's. */
  exchange: text('exchange').$type<'binance' | 'bybit' | 'okx'>().notNull().default('binance'),
  /** OKX keys only: the passphrase chosen with the key, sealed like the secret. */
  passphraseSealed: text('passphrase_sealed'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** What the key may do, as Binance answered at the last check (null on the paper exchange). */
  permissions: jsonb('permissions').$type<Record<string, boolean>>(),
  permissionsCheckedAt: timestamp('permissions_checked_at', { withTimezone: true }),
});
