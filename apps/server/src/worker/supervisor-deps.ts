import type { Db } from '@gridbot/db';
import type { FundingRates, MarketFeed } from '@gridbot/exchange';
import type { BotWriteListener } from '../modules/bots';
import type { ExchangeGateway, UserKeys } from '../modules/exchange';
import type { WorkerMetrics } from '../ops/metrics';
import type { BotRunnerDeps } from './bot-context';

/** What the bot supervisor is built with (by the role's wiring, or a test). */
export interface SupervisorDeps {
  db: Db;
  feed: MarketFeed;
  /** Funding rates of paper futures bots (docs/trading-rules.md §2.2); none: paper futures pay no funding. */
  funding?: FundingRates;
  /** Moves a booked funding payment in the paper account's futures wallet. */
  payFunding?: BotRunnerDeps['payFunding'];
  exchanges: ExchangeGateway;
  /** The user's bound exchange keys, or undefined when none are saved. */
  loadKeys: (userId: string) => Promise<UserKeys | undefined>;
  now: () => number;
  log: (message: string, extra?: Record<string, unknown>) => void;
  /** How often state that moved without an order is written. Default 15 s. */
  flushIntervalMs?: number;
  /** Pause before a bot whose task failed is loaded again from the database. Default 5 s. */
  reloadDelayMs?: number;
  /** Bots read together at the start, one query each for their rows, open intents and queued commands. Default 250. */
  launchBatch?: number;
  /** Wait before each look-up of an order whose outcome is unknown (`BotRunnerDeps`). */
  reconcileDelayMs?: BotRunnerDeps['reconcileDelayMs'];
  /** Bots owned, ticks, tick-to-order latency, exchange errors (GET /metrics). */
  metrics?: WorkerMetrics;
  /** An order of the user was refused for the key: its rights are read again (KeyPermissionMonitor). */
  onAuthError?: (userId: string) => void;
  /** A bot's commands may have ended: the role publishes it on the bus for the API's waiting request. */
  onCommandsSettled?: (botId: string) => void;
  /** Fills, states with orders and halts committed: the role publishes them for the push channel. */
  onBotsWritten?: BotWriteListener;
  /**
   * Scale-out (ROLE=worker): bots run only while this process holds their lease. `start()` then
   * loads nothing by itself; the lease coordinator hands bots in with `launchBots` and takes them with `drop`.
   */
  leases?: {
    /** Whether this process may trade the bot now (lease held and not past its local deadline). */
    mayRun(botId: string): boolean;
    /** The fencing token this process holds the bot's lease with; undefined when it holds none. */
    epochOf(botId: string): number | undefined;
    /** A write of the bot was refused (its lease was taken over): the bot has been let go here. */
    onFenced(botId: string): void;
    /** The bot stopped for good here (Stopped, halted): its lease can go. */
    onFinished(botId: string): void;
  };
}
