/**
 * What every role builds the same way: the app's dependencies for the processes that serve the API, and the
 * bot runtime for the processes that run bots. Each role says only what differs, here in one table:
 *
 * | part                | all (`npm start`)                    | api                              | worker                            |
 * | ------------------- | ------------------------------------ | -------------------------------- | --------------------------------- |
 * | bus                 | in process (`MemoryBus`)             | Redis                            | Redis                             |
 * | prices              | its own feed                         | the market role's, over the bus  | the market role's, over the bus   |
 * | bots and commands   | bus event → its own supervisor       | lease row, then bus event        | bus event → lease coordinator     |
 * | which bots run      | every running bot                    | none                             | the bots whose leases it holds    |
 * | session revocations | in process                           | over the bus                     | —                                 |
 * | request budgets     | in process                           | Redis                            | Redis                             |
 */
import type { DbHandle } from '@gridbot/db';
import type { FundingRates, MarketFeed, PaperExchange, RequestBudget } from '@gridbot/exchange';
import type { AppDeps, BotControl, Operations } from '../app/deps';
import { createProcessState } from '../app/process-state';
import type { Bus } from '../bus/bus';
import { publishCommandsSettled } from '../bus/command-results';
import type { AppConfig, Env } from '../config/env';
import { systemClock } from '../lib/clock';
import type { SecretBox } from '../lib/secret-box';
import type { Mailer } from '../mail/mailer';
import { runningWorkOf } from '../modules/bots';
import {
  createCandleHistory,
  createFundingHistory,
  type ExchangeGateway,
  loadUserKeys,
} from '../modules/exchange';
import { publishBotWrites } from '../modules/notifications';
import { KeyPermissionMonitor } from '../modules/security';
import type { RateLimit } from '../plugins/rate-limit';
import { BotSupervisor, type SupervisorDeps } from '../worker/bot-supervisor';
import type { Log } from './shared';

/** The parts a role opened that the API's dependencies are made of. */
export interface ApiParts {
  database: DbHandle;
  config: AppConfig;
  mailer: Mailer;
  limiter: RateLimit;
  feed: MarketFeed;
  exchanges: ExchangeGateway;
  /** What the process's exchange requests spend (`openRequestBudget`), backtest history reads included. */
  budget: RequestBudget;
  secrets: SecretBox;
  /** The bus between processes (split roles); absent in one process. */
  bus?: Bus;
  /** Where bot changes and notifications reach the push channel and command answers arrive. */
  userEvents: Bus;
  botControl: BotControl;
  ops: Operations;
}

/** The app's dependencies (`buildApp`) of a process that serves the API. */
export async function apiDeps(env: Env, parts: ApiParts): Promise<AppDeps> {
  const { database, feed, userEvents } = parts;
  return {
    db: database.db,
    mailer: parts.mailer,
    clock: systemClock,
    config: parts.config,
    limiter: parts.limiter,
    feed,
    candleHistory: await createCandleHistory(env, feed, database.db, parts.budget),
    fundingHistory: await createFundingHistory(env, parts.budget),
    exchanges: parts.exchanges,
    secrets: parts.secrets,
    runningWork: runningWorkOf(database.db),
    ...(parts.bus ? { bus: parts.bus } : {}),
    userEvents,
    state: createProcessState({ db: database.db, feed, userEvents }),
    botControl: parts.botControl,
    ops: parts.ops,
  };
}

/** The parts a role opened that its bot runtime is made of. */
export interface RuntimeParts {
  database: DbHandle;
  feed: MarketFeed;
  exchanges: ExchangeGateway;
  paper: PaperExchange;
  funding: FundingRates;
  secrets: SecretBox;
  /** Where the runtime says that commands settled and bots were written. */
  bus: Bus;
  log: Log;
  /** What a split worker adds: its metrics and the lease coordinator's hooks. */
  extra?: Pick<SupervisorDeps, 'metrics' | 'leases'>;
}

/**
 * The bot runtime: the supervisor that runs bots and the monitor that re-reads an API key's rights (daily, and
 * after an order refused for the key), which pauses the user's bots when a right they need is gone.
 */
export function botRuntime(parts: RuntimeParts): {
  supervisor: BotSupervisor;
  keyMonitor: KeyPermissionMonitor;
} {
  const { database, exchanges, secrets, bus, log } = parts;
  const keyDeps = { db: database.db, exchanges, secrets };
  const keyMonitor = new KeyPermissionMonitor(
    { ...keyDeps, now: () => systemClock.now(), log },
    (userId, reason) => supervisor.haltUserBots(userId, reason),
  );
  const supervisor: BotSupervisor = new BotSupervisor({
    db: database.db,
    feed: parts.feed,
    funding: parts.funding,
    payFunding: (userId, amount, refId) => parts.paper.applyFunding(userId, amount, refId),
    exchanges,
    loadKeys: (userId) => loadUserKeys(keyDeps, userId),
    now: () => systemClock.now().getTime(),
    log,
    onAuthError: (userId) => void keyMonitor.checkUser(userId),
    onCommandsSettled: (botId) => void publishCommandsSettled(bus, botId),
    onBotsWritten: (writes) => publishBotWrites(bus, writes),
    ...parts.extra,
  });
  return { supervisor, keyMonitor };
}
