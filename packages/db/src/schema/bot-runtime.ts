import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bots } from './bots';
import { users } from './users';

/**
 * An order a bot decided to place (docs/trading-rules.md §3 "intent before order"): written with its deterministic client
 * order id before it is sent, so a crash can be reconciled by asking the exchange for that id.
 * status: pending (written, maybe sent; a range grid's limit order while it rests) → filled | failed; unknown =
 * sent, outcome not known yet; done = a range grid's cancel carried out (its limit order's row is then failed).
 */
export const botIntents = pgTable(
  'bot_intents',
  {
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    clientOrderId: text('client_order_id').notNull().unique(),
    /** A range grid's also: PlaceLimit (rests until filled or cancelled), CancelOrder, RangeMarketOrder. */
    kind: text('kind', {
      enum: ['MarketBuy', 'SellLots', 'RecordLiquidation', 'PlaceLimit', 'CancelOrder', 'RangeMarketOrder'],
    }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: ['pending', 'unknown', 'filled', 'failed', 'done'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.botId, t.seq] }), index('bot_intents_open_idx').on(t.status)],
);

/**
 * One executed intent of a bot, or one futures funding payment: a row of its Order Book
 * (docs/spec/02-bots-wallet-account.md, docs/trading-rules.md §2.2). Written in the fill's transaction.
 */
export const botFills = pgTable(
  'bot_fills',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The intent's sequence; null on a funding row, which answers no intent. */
    seq: integer('seq'),
    side: text('side', { enum: ['buy', 'sell', 'FUNDING'] }).notNull(),
    /** Grid of a buy; the newest grid of a sell. */
    grid: integer('grid').notNull(),
    price: numeric('price').notNull(),
    qty: numeric('qty').notNull(),
    /** Quote spent or received (futures: notional). */
    quote: numeric('quote').notNull(),
    /** The fee in USDT (a fee paid in a coin is valued at that coin's price at the fill). */
    fee: numeric('fee').notNull(),
    /** The asset the exchange charged the fee in (USDT, the bought coin, or BNB), and the amount it charged. */
    feeAsset: text('fee_asset').notNull().default('USDT'),
    feePaid: numeric('fee_paid'),
    /** Profit of the lots a sell closed (docs/trading-rules.md §2.1), or the funding received (−: paid); null for buys. */
    pnl: numeric('pnl'),
    timeMs: bigint('time_ms', { mode: 'number' }).notNull(),
    /** The order's client order id; on a funding row `funding-<funding time ms>`, once per bot and time. */
    clientOrderId: text('client_order_id').notNull(),
  },
  (t) => [
    unique('bot_fills_bot_seq_key').on(t.botId, t.seq),
    index('bot_fills_bot_time_idx').on(t.botId, t.timeMs),
    uniqueIndex('bot_fills_funding_key').on(t.botId, t.clientOrderId).where(sql`${t.side} = 'FUNDING'`),
    check('bot_fills_side_check', sql`${t.side} in ('buy', 'sell', 'FUNDING')`),
    check('bot_fills_seq_check', sql`(${t.side} = 'FUNDING') = (${t.seq} is null)`),
  ],
);

/**
 * A user's command to a running bot (stop, stop and sell, edit limits). The database is the source of
 * truth: the API writes the row, the worker that owns the bot applies queued rows in order and marks them
 * done, so a worker that missed a notification catches up from here.
 */
export const botCommands = pgTable(
  'bot_commands',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** `applied`: a stop and sell the worker applied whose sale is not booked yet (done once it is). */
    status: text('status', { enum: ['queued', 'applied', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [index('bot_commands_queued_idx').on(t.botId, t.status)],
);
