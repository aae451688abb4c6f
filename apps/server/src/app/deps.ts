import type { Db } from '@gridbot/db';
import type { CandleHistory, FundingHistory, MarketFeed } from '@gridbot/exchange';
import type { Registry } from 'prom-client';
import type { Bus } from '../bus/bus';
import type { AppConfig } from '../config/env';
import type { Clock } from '../lib/clock';
import type { SecretBox } from '../lib/secret-box';
import type { Mailer } from '../mail/mailer';
import type { ExchangeGateway } from '../modules/exchange';
import type { ChainRuntime } from '../modules/platform';
import type { RateLimit } from '../plugins/rate-limit';
import type { ProcessState } from './process-state';

/** Everything the modules use, passed to buildApp (docs/contributing.md §8: no decorators as a service locator). */
export interface AppDeps {
  db: Db;
  mailer: Mailer;
  clock: Clock;
  config: AppConfig;
  limiter: RateLimit;
  /** Prices: sim, replay or Binance (MARKET_FEED). */
  feed: MarketFeed;
  /**
   * Candle history for backtests, from the market source (MARKET_FEED): absent, the embedded set and the
   * feed's recorded candles.
   */
  candleHistory?: CandleHistory;
  /** Funding rates sent with futures candle history, from the same source: absent, the embedded set. */
  fundingHistory?: FundingHistory;
  /** Each user's exchange account (EXCHANGE). */
  exchanges: ExchangeGateway;
  /** Seals API secrets at rest. */
  secrets: SecretBox;
  /** Whether a user has a bot or cycle running (API keys cannot be disconnected then). */
  runningWork: RunningWork;
  /** Hands bots to the runtime (in-process supervisor in embedded mode). */
  botControl: BotControl;
  /** The bus between the processes of a split deployment (ROLE=api); absent in a single process. */
  bus?: Bus;
  /**
   * Where users' bot changes and notifications arrive for the push channel: the Redis bus in a split
   * deployment, an in-process bus when embedded; absent, GET /api/push is not served.
   */
  userEvents?: Bus;
  /**
   * BEP-20 deposits (CHAIN_RPC_URL with SUBSCRIPTION_ENABLED): the chain client and the deposit watcher, which
   * the role starts and stops (`startDepositWatcher`); absent, deposits are off.
   */
  chain?: ChainRuntime;
  /** The process's caches and shared reads (`createProcessState`, built by the role). */
  state: ProcessState;
  /** Role, readiness checks and metrics for /healthz, /readyz and /metrics (main.ts sets them). */
  ops?: Operations;
}

export interface Operations {
  role: 'all' | 'api' | 'worker' | 'market';
  /** Named checks of the role's own parts, each true when ready. */
  readiness(): Record<string, boolean>;
  metrics?: Registry;
  /** METRICS_TOKEN: the bearer token /metrics asks for; unset, only loopback callers get it. */
  metricsToken?: string;
}

export interface BotControl {
  /** A bot was created: start running it. */
  add(botId: string): Promise<void>;
  /** Commands were queued for a bot: apply them. */
  notify(botId: string): Promise<void>;
}

export interface RunningWork {
  hasRunning(userId: string): Promise<boolean>;
}
