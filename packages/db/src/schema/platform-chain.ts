import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/** A user's BEP-20 deposit address, derived from the platform's HD wallet at `hdIndex`. */
export const depositAddresses = pgTable('deposit_addresses', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** BIP-44 address index (m/44'/60'/0'/0/hdIndex); never reused. */
  hdIndex: serial('hd_index').notNull().unique(),
  /** Lower-cased, for matching Transfer logs. */
  address: text('address').notNull().unique(),
  /** End of the current 'make payment' listening window, if any. */
  listenUntil: timestamp('listen_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A credited token transfer. (txHash, logIndex) is unique: a log is credited exactly once. */
export const deposits = pgTable(
  'deposits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token: text('token', { enum: ['USDT', 'IFC', 'IFX'] }).notNull(),
    amount: numeric('amount').notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('deposits_tx_log_key').on(t.txHash, t.logIndex),
    index('deposits_user_idx').on(t.userId, t.createdAt),
  ],
);

/** How far the deposit watcher has scanned, per chain: the last block whose logs are credited. */
export const chainCursors = pgTable('chain_cursors', {
  chain: text('chain').primaryKey(),
  lastBlock: bigint('last_block', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A rewards withdrawal: PENDING (amount held) → SENT (tx hash) or REJECTED (refunded). */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Taken from usdtRewardToken; the address receives amount − fee. */
    amount: numeric('amount').notNull(),
    fee: numeric('fee').notNull(),
    /** EIP-55 checksummed. */
    toAddress: text('to_address').notNull(),
    status: text('status', { enum: ['PENDING', 'SENT', 'REJECTED'] })
      .notNull()
      .default('PENDING'),
    txHash: text('tx_hash'),
    /**
     * Set, and committed, before the hot wallet sends (intent before payout, docs/trading-rules.md §3). While set and not
     * SENT, the outcome of that send is unknown: the hot wallet never sends for this row again; an
     * administrator checks the chain and records the hash, or rejects.
     */
    payoutStartedAt: timestamp('payout_started_at', { withTimezone: true }),
    rejectReason: text('reject_reason'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('withdrawals_user_idx').on(t.userId, t.createdAt),
    index('withdrawals_status_idx').on(t.status),
    check('withdrawals_sent_has_hash', sql`${t.status} <> 'SENT' OR ${t.txHash} IS NOT NULL`),
  ],
);
