import type { Db } from '@gridbot/db';
import type { EngineRules, EngineState } from '@gridbot/engine';
import type { Exchange, MarketKind } from '@gridbot/exchange';
import type { UsdtPriceOf } from './order-outcome';
import type { RuntimeWrites } from './runtime-writes';

export interface BotRunnerDeps {
  /**
   * The database for the bot's reads and writes. In leased mode every write through it is fenced by the bot's
   * lease (`fencedWrites`): refused, and the bot let go, once another worker took the lease over.
   */
  db: Db;
  /** The process's group commits of bot writes (`createRuntimeWrites`), as this bot's writes see them. */
  writes: RuntimeWrites;
  exchange: Exchange;
  now: () => number;
  log: (message: string, extra?: Record<string, unknown>) => void;
  /** Called once the bot has stopped for good (Stopped or halted): the supervisor lets it go. */
  onFinished: (botId: string) => void;
  /**
   * Called when a task failed half-way (e.g. the database went away): the in-memory state may now be ahead of
   * the database, so the supervisor drops this runner and loads the bot again from the database.
   */
  onBroken: (botId: string) => void;
  /** USDT prices of coins, to value a fee paid in a third coin (BNB on Binance). */
  usdtPriceOf?: UsdtPriceOf;
  /** An order was refused for the key (bad key, IP or permissions): its rights are read again. */
  onAuthError?: (userId: string) => void;
  /** Paper futures: moves a booked funding payment in the account's futures wallet (`refId` names it). */
  payFunding?: (userId: string, amount: string, refId: string) => Promise<unknown>;
  /** Commands of the bot may have ended (applied, done, failed): the API waiting for one reads it now. */
  onCommandsSettled?: (botId: string) => void;
  /** The exchange's rules change while the bot runs (Binance's exchangeInfo): take them again hourly. */
  liveRules?: boolean;
  /**
   * Wait before the `attempts`-th look-up of an order whose outcome is unknown. Default
   * `reconcileDelayMs`; tests that drive many unknown outcomes pass a shorter one.
   */
  reconcileDelayMs?: (attempts: number) => number;
}

export interface BotIdentity {
  botId: string;
  userId: string;
  symbol: string;
  market: MarketKind;
  baseAsset: string;
}

/**
 * What the parts of one running bot share (the runner, its order tracker, exchange follower and funding
 * booking): who the bot is, its dependencies and its mutable state. Only the bot's own queue changes it,
 * one task at a time (`BotRunner.serial`), so the parts never see it half-changed.
 */
export interface BotContext {
  readonly id: BotIdentity;
  readonly deps: BotRunnerDeps;
  /** The engine's state of the bot: whichever part decides or books replaces it. */
  state: EngineState;
  rules: EngineRules;
  /** The last price the bot saw (the feed's when it started, before its first tick). */
  lastPrice: number | null;
  /** The state moved without a write (trailing, statistics): the next flush writes it. */
  dirty: boolean;
  /** Stopped for good here (Stopped, halted, dropped, reloading): nothing more is sent or written. */
  finished: boolean;
  /** Intents of the batch being sent that have not gone out yet. */
  readonly unsent: Set<number>;
}

/** What the parts ask of the runner, which owns the bot's queue and when it stops. */
export interface BotLifecycle {
  /** Runs `fn` on the bot's queue, after everything queued before it. */
  serial(fn: () => Promise<void>): Promise<void>;
  /** Pauses the bot with a reason its page shows, and lets it go. */
  halt(reason: string): Promise<void>;
  /** Steps the engine on a price and sends what it decides. */
  stepAndExecute(price: number, timeMs: number): Promise<void>;
  /** Lets the bot go once its engine stopped it and nothing is left under way. */
  finishIfStopped(): void;
}
