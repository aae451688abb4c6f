import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The paper exchange's books (docs/architecture.md §1 embedded default). Amounts are `numeric` (exact decimals, read back as
 * strings). Every balance change has a ledger row written in the same transaction, so balances can always be
 * recomputed from `paper_ledger`. Accounts are keyed by the platform user id as text and hold no foreign key
 * to users: the paper exchange is a venue of its own, like Binance, and its store contract uses plain ids.
 */
export const paperAccounts = pgTable('paper_accounts', {
  userId: text('user_id').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const paperBalances = pgTable(
  'paper_balances',
  {
    userId: text('user_id')
      .notNull()
      .references(() => paperAccounts.userId, { onDelete: 'cascade' }),
    wallet: text('wallet', { enum: ['spot', 'future'] }).notNull(),
    asset: text('asset').notNull(),
    free: numeric('free').notNull().default('0'),
    locked: numeric('locked').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.wallet, t.asset] })],
);

export const paperOrders = pgTable(
  'paper_orders',
  {
    userId: text('user_id')
      .notNull()
      .references(() => paperAccounts.userId, { onDelete: 'cascade' }),
    clientOrderId: text('client_order_id').notNull(),
    exchangeOrderId: text('exchange_order_id').notNull(),
    market: text('market', { enum: ['spot', 'future'] }).notNull(),
    symbol: text('symbol').notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    type: text('type', { enum: ['market', 'limit'] }).notNull(),
    status: text('status', {
      enum: ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'REJECTED', 'EXPIRED'],
    }).notNull(),
    price: numeric('price'),
    quantity: numeric('quantity').notNull(),
    filledQuantity: numeric('filled_quantity').notNull(),
    filledQuote: numeric('filled_quote').notNull(),
    averagePrice: numeric('average_price'),
    fee: numeric('fee').notNull(),
    feeAsset: text('fee_asset').notNull(),
    leverage: integer('leverage'),
    /** Futures: the order may only reduce the position, never open or flip it. */
    reduceOnly: boolean('reduce_only').notNull().default(false),
    reservedAsset: text('reserved_asset'),
    reserved: numeric('reserved').notNull(),
    createdMs: bigint('created_ms', { mode: 'number' }).notNull(),
    updatedMs: bigint('updated_ms', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.clientOrderId] }),
    index('paper_orders_status_idx').on(t.status, t.market, t.symbol),
  ],
);

export const paperPositions = pgTable(
  'paper_positions',
  {
    userId: text('user_id')
      .notNull()
      .references(() => paperAccounts.userId, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    /** One-way position: `quantity` is its size (never negative), `side` which way it points. */
    side: text('side', { enum: ['long', 'short'] })
      .notNull()
      .default('long'),
    quantity: numeric('quantity').notNull(),
    entryNotional: numeric('entry_notional').notNull(),
    isolatedMargin: numeric('isolated_margin').notNull(),
    leverage: integer('leverage').notNull(),
    maintMarginRate: doublePrecision('maint_margin_rate').notNull(),
    liquidationPrice: numeric('liquidation_price').notNull(),
    version: integer('version').notNull(),
    updatedMs: bigint('updated_ms', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.symbol] })],
);

export const paperLeverage = pgTable(
  'paper_leverage',
  {
    userId: text('user_id')
      .notNull()
      .references(() => paperAccounts.userId, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    leverage: integer('leverage').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.symbol] })],
);

export const paperLedger = pgTable(
  'paper_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => paperAccounts.userId, { onDelete: 'cascade' }),
    wallet: text('wallet', { enum: ['spot', 'future'] }).notNull(),
    asset: text('asset').notNull(),
    /** Signed change of the balance's total (free + locked). */
    amount: numeric('amount').notNull(),
    kind: text('kind').notNull(),
    refId: text('ref_id').notNull(),
    tsMs: bigint('ts_ms', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('paper_ledger_user_idx').on(t.userId, t.id),
    // A funding payment is paid once per bot and funding time (its refId), also when a worker sends it again
    // after a crash.
    uniqueIndex('paper_ledger_funding_ref_idx').on(t.userId, t.refId).where(sql`${t.kind} = 'funding'`),
  ],
);
