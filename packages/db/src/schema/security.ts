import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The account's security log: sign-ins, password and 2FA changes, keys saved or removed, withdrawals
 * requested. `detail` never holds a secret (no key, no code), only what the owner needs to recognise it.
 * A trigger turns the kinds that warrant an e-mail into notification events (migration `security`).
 */
export const securityEvents = pgTable(
  'security_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    ip: text('ip'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('security_events_user_idx').on(t.userId, t.id)],
);

/** One-time recovery codes of two-factor sign-in; only their SHA-256 is stored. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/** Platform-wide security choices an administrator makes (one row). */
export const securitySettings = pgTable('security_settings', {
  id: integer('id').primaryKey().default(1),
  /** Administrators must turn on two-factor sign-in before the admin pages answer them. */
  requireAdminTwoFactor: boolean('require_admin_two_factor').notNull().default(false),
});
