import type { RangeStrategy, StrategyParams, Venue } from '@gridbot/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  json,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { strategies } from './strategies';
import { users } from './users';

/** What a cycle started with (docs/spec/02-bots-wallet-account.md start cycle payload, normalised); edits change the engine state. */
export interface CycleSnapshot {
  buyPrice: number;
  sellPrice: number;
  stopLoss: number | null;
  cycles: number;
}

/** The partial unique index behind 'A bot is already running on …'. */
export const RUNNING_PER_PAIR_INDEX = 'bots_one_running_per_pair';

/**
 * A bot or a cycle (a cycle runs on the same runtime, intents and fills as a bot, so it is a row
 * here with `bot_type` 'cycle', its parameters in `strategy_snapshot` and its engine state beside them).
 * A bot keeps `strategy_snapshot`, the strategy it started with, so editing the strategy changes only bots
 * started afterwards. `strategy_id` is cleared if
 * the strategy is deleted later; a strategy with a Live or Pause bot cannot be deleted.
 */
export const bots = pgTable(
  'bots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `range`: a range grid (docs/trading-rules.md §2.6), its strategy inline in the snapshot. */
    botType: text('bot_type', { enum: ['multigrid', 'scalping', 'cycle', 'range'] }).notNull(),
    strategyId: uuid('strategy_id').references(() => strategies.id, { onDelete: 'set null' }),
    strategyName: text('strategy_name').notNull(),
    strategySnapshot: jsonb('strategy_snapshot')
      .$type<StrategyParams | CycleSnapshot | RangeStrategy>()
      .notNull(),
    symbol: text('symbol').notNull(),
    category: text('category', { enum: ['Spot', 'Future'] }).notNull(),
    /**
     * `Stopping`: the bot stopped or is stopping with orders still to settle (its final sell, docs/trading-rules.md §3); the
     * runtime keeps it and reconciles it like a running bot until they are filled and booked, then Stopped.
     */
    status: text('status', { enum: ['Live', 'Pause', 'Stopping', 'Stopped'] })
      .notNull()
      .default('Live'),
    investment: numeric('investment').notNull(),
    leverage: integer('leverage').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    /**
     * The engine's state (docs/trading-rules.md §2, plain JSON), written with every intent and fill. `json`, not `jsonb`: it
     * is only ever stored and read whole, and PostgreSQL spent about a third of a batched state write building jsonb.
     */
    engineState: json('engine_state').$type<Record<string, unknown>>(),
    /** Bumped on every write of engine_state (optimistic concurrency between workers). */
    stateVersion: integer('state_version').notNull().default(0),
    /** Why the runtime halted trading (repeated exchange failures, bad keys), shown on the bot page. */
    haltReason: text('halt_reason'),
    /** stoploss | profit_book | liquidated | manual | manual_sell (engine StopReason). */
    stopReason: text('stop_reason'),
    /** Price at the moment the bot stopped (History: Closed price). */
    closedPrice: numeric('closed_price'),
    /**
     * A futures bot stopped without a sale leaves its position open; when that position is closed from the
     * Positions panel, when and at what average price (History: Closed price). The bot's lots stay in its
     * state, and its figures stay its own: the close is the account's, not the bot's.
     */
    positionClosedAt: timestamp('position_closed_at', { withTimezone: true }),
    positionClosedPrice: numeric('position_closed_price'),
    /** Σ pnl of the bot's profitable sells, kept by the statement that inserts its fills (Profit Book). */
    profitBook: numeric('profit_book').notNull().default('0'),
    /** Σ pnl of its losing sells, ≤ 0 (Loss Book). */
    lossBook: numeric('loss_book').notNull().default('0'),
    /** How many fills the bot has (its Order Book's total), kept like the books. */
    fillCount: integer('fill_count').notNull().default(0),
    /**
     * Paper futures: the latest funding time (the feed's clock) the bot has settled, booked or passed with
     * nothing to book (docs/trading-rules.md §2.2). Funding times after it are due, those missed while no
     * worker ran included; null until the bot's first tick.
     */
    fundedThroughMs: bigint('funded_through_ms', { mode: 'number' }),
    /**
     * The exchange the bot was started on (paper, binance, bybit, okx), as History and the fills CSV name it
     * after the member has bound another exchange's key. Null for bots started before it was recorded.
     */
    venue: text('venue').$type<Venue>(),
  },
  (t) => [
    index('bots_user_id_status_idx').on(t.userId, t.status),
    index('bots_strategy_id_idx').on(t.strategyId),
    // One running bot or cycle per user, pair and category (docs/spec/01-core-screens.md Start bot): the database decides, so two
    // starts at once cannot both pass a check made before either inserts.
    uniqueIndex(RUNNING_PER_PAIR_INDEX)
      .on(t.userId, t.symbol, t.category)
      .where(sql`${t.status} in ('Live', 'Pause', 'Stopping')`),
  ],
);

/**
 * Members who copied a range grid from Copy BOTs, once each: a copied grid stores no strategy of its own (Start
 * Grid opens with its parameters), so its card counts its copies here.
 */
export const gridCopies = pgTable(
  'grid_copies',
  {
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    copiedAt: timestamp('copied_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.botId, t.userId] })],
);
