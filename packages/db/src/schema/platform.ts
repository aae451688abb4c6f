import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A user's platform wallet: deposited tokens, referral rewards and the profit limit left
 * (docs/product.md §5). Every change is a `platform_ledger` row written in the same transaction; balances never
 * go below zero (checked here as a last line of defence; the services debit with conditional updates).
 */
export const platformWallets = pgTable(
  'platform_wallets',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    usdtToken: numeric('usdt_token').notNull().default('0'),
    ifcToken: numeric('ifc_token').notNull().default('0'),
    ifxToken: numeric('ifx_token').notNull().default('0'),
    usdtRewardToken: numeric('usdt_reward_token').notNull().default('0'),
    /** Profit limit remaining: booked profits lower it, subscriptions raise it. */
    availableCredit: numeric('available_credit').notNull().default('0'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'platform_wallets_non_negative',
      sql`${t.usdtToken} >= 0 AND ${t.ifcToken} >= 0 AND ${t.ifxToken} >= 0 AND ${t.usdtRewardToken} >= 0 AND ${t.availableCredit} >= 0`,
    ),
  ],
);

/** Append-only: one row per balance change, `balanceAfter` = the wallet column after the change. */
export const platformLedger = pgTable(
  'platform_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    account: text('account', {
      enum: ['usdtToken', 'ifcToken', 'ifxToken', 'usdtRewardToken', 'availableCredit'],
    }).notNull(),
    delta: numeric('delta').notNull(),
    balanceAfter: numeric('balance_after').notNull(),
    reason: text('reason', {
      enum: [
        'deposit',
        'subscription',
        'subscription_credit',
        'referral_reward',
        'swap_reward',
        'withdraw_hold',
        'withdraw_refund',
        'profit_booked',
        'seed',
      ],
    }).notNull(),
    /** What caused it: a subscription, deposit, withdrawal, reward or bot id. */
    refId: text('ref_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('platform_ledger_user_idx').on(t.userId, t.account)],
);

/** A subscription plan: its price per token (0 = not charged) and the profit limit it grants. */
export const platformPlans = pgTable('platform_plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  usdtToken: numeric('usdt_token').notNull().default('0'),
  ifcToken: numeric('ifc_token').notNull().default('0'),
  ifxToken: numeric('ifx_token').notNull().default('0'),
  availableCredit: numeric('available_credit').notNull(),
  active: boolean('active').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A purchase of a plan; prices and credit copied at purchase time (plans can be edited later). */
export const platformSubscriptions = pgTable(
  'platform_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => platformPlans.id),
    planName: text('plan_name').notNull(),
    usdtToken: numeric('usdt_token').notNull(),
    ifcToken: numeric('ifc_token').notNull(),
    ifxToken: numeric('ifx_token').notNull(),
    availableCredit: numeric('available_credit').notNull(),
    /** docs/spec/02-bots-wallet-account.md §4: Active while the profit limit lasts and it is the newest; In-Active after. */
    status: text('status', { enum: ['Pending', 'Active', 'In-Active'] })
      .notNull()
      .default('Active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('platform_subscriptions_user_idx').on(t.userId, t.createdAt)],
);

/** Referral level table (docs/product.md §5; default 10, 5, 3, 2, 1 %). Level 1 = the direct referrer. */
export const referralLevels = pgTable('referral_levels', {
  level: integer('level').primaryKey(),
  rewardPercentage: numeric('reward_percentage').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Reward History: one row per ancestor paid for a subscription purchase. */
export const referralRewards = pgTable(
  'referral_rewards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fromUserId: uuid('from_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => platformSubscriptions.id, { onDelete: 'cascade' }),
    level: integer('level').notNull(),
    percentage: numeric('percentage').notNull(),
    amount: numeric('amount').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('referral_rewards_user_idx').on(t.userId, t.createdAt)],
);

/** Every administrator action: who, when, what. */
export const adminActions = pgTable(
  'admin_actions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    adminUserId: uuid('admin_user_id').references(() => users.id, { onDelete: 'set null' }),
    adminEmail: text('admin_email').notNull(),
    action: text('action').notNull(),
    target: text('target'),
    details: jsonb('details').$type<unknown>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_actions_created_idx').on(t.createdAt)],
);
