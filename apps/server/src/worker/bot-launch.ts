import type { Db } from '@gridbot/db';
import { compileRules, type EngineState, type RangeState, reviveRange } from '@gridbot/engine';
import { type Exchange, isExchangeError } from '@gridbot/exchange';
import { getMarketRules } from '@gridbot/shared';
import { isLiveVenue, type UserKeys } from '../modules/exchange';
import type { WorkerMetrics } from '../ops/metrics';
import type { BotIdentity, BotRunnerDeps } from './bot-context';
import { BotRunner } from './bot-runner';
import type { BotRow } from './bot-state.repo';
import { type CommandRow, queuedCommandsOf } from './commands.repo';
import { type IntentRow, openIntentsOf } from './intents.repo';
import { LeaseLapsedError } from './lease-fence';
import type { UsdtPriceOf } from './order-outcome';
import { RangeRunner } from './range-runner';
import { haltBot, type RuntimeWrites } from './runtime-writes';
import type { SupervisorDeps } from './supervisor-deps';

/** What a launch reads for a bot ahead, with the other bots of its batch. */
export interface Preloaded {
  intents: readonly IntentRow[];
  commands: readonly CommandRow[];
  keys: Promise<UserKeys | undefined>;
}

/**
 * Reads what a batch of launches needs in a few queries for the whole batch (a restart of 10,000 bots costs a
 * few hundred queries, not a few per bot): each bot's unfinished intents and queued commands, and its user's
 * keys, read once per user.
 */
export async function preloadLaunches(
  db: Db,
  rows: readonly BotRow[],
  loadKeys: SupervisorDeps['loadKeys'],
): Promise<Map<string, Preloaded>> {
  const ids = rows.map((row) => row.id);
  const [intents, commands] = await Promise.all([openIntentsOf(db, ids), queuedCommandsOf(db, ids)]);
  const keys = new Map<string, Promise<UserKeys | undefined>>();
  const keysOf = (userId: string) => {
    const known = keys.get(userId);
    if (known) return known;
    const loaded = loadKeys(userId);
    keys.set(userId, loaded);
    return loaded;
  };
  return new Map(
    rows.map((row) => [
      row.id,
      { intents: intents.get(row.id) ?? [], commands: commands.get(row.id) ?? [], keys: keysOf(row.userId) },
    ]),
  );
}

/** What the supervisor lends the runners it creates. */
export interface RunnerEnv {
  deps: SupervisorDeps;
  writes: RuntimeWrites;
  /** The writes of a runner of the bot (fenced by its lease in leased mode); none when it may not run here. */
  writesFor(botId: string): RuntimeWrites | undefined;
  /** The user's exchange as the runner is to use it (measured for /metrics). */
  instrument(exchange: Exchange, botId: string): Exchange;
  usdtPriceOf: UsdtPriceOf;
  /** The bot stopped for good (Stopped or halted). */
  onFinished(botId: string): void;
  /** A task of the bot failed half-way: the bot is to be loaded again. */
  onBroken(botId: string): void;
}

/**
 * A runner for the bot's row on its user's exchange, with the rules that exchange checks orders against;
 * none when the row has no engine state, or when the user has no keys (the bot is then halted).
 */
export async function createRunner(
  env: RunnerEnv,
  row: BotRow,
  loadedKeys?: Promise<UserKeys | undefined>,
): Promise<BotRunner | RangeRunner | undefined> {
  const { deps } = env;
  if (!row.engineState) return undefined;
  const writes = env.writesFor(row.id);
  if (!writes) return undefined;
  const market = row.category === 'Future' ? 'future' : 'spot';
  const keys = await (loadedKeys ?? deps.loadKeys(row.userId));
  if (!keys) {
    await haltBot(writes, row.id, 'API keys are not connected. Connect them in API Setting.');
    return undefined;
  }
  const exchange = deps.exchanges.forUser(row.userId, keys);
  // The engine sizes orders with the rules the exchange checks them against and funds at its funding
  // interval: Binance's live exchangeInfo filters, the paper exchange's rules (the shared table when the
  // exchange does not answer).
  const rules = await Promise.resolve()
    .then(() => exchange.marketRules(row.symbol, market))
    .catch(() => getMarketRules(row.symbol, market));
  const last = deps.feed.lastPrice(row.symbol, market);
  const identity: BotIdentity = {
    botId: row.id,
    userId: row.userId,
    symbol: row.symbol,
    market,
    baseAsset: rules.base,
  };
  // On a live exchange the exchange alone liquidates (on its mark price) and says so: the bot books a
  // liquidation only from the exchange (exchange-follower.ts), never from the feed crossing the engine's level.
  const engineRules = { ...compileRules(rules), liquidationFromExchange: isLiveVenue(exchange.venue) };
  const runnerDeps: BotRunnerDeps = {
    db: writes.db,
    writes,
    exchange: env.instrument(
      deps.leases ? heldBackWithoutLease(exchange, row.id, deps.leases.mayRun) : exchange,
      row.id,
    ),
    now: deps.now,
    log: deps.log,
    onFinished: env.onFinished,
    onBroken: env.onBroken,
    usdtPriceOf: env.usdtPriceOf,
    ...(deps.onAuthError ? { onAuthError: deps.onAuthError } : {}),
    onCommandsSettled: deps.onCommandsSettled,
    payFunding: deps.payFunding,
    liveRules: isLiveVenue(exchange.venue),
    ...(deps.reconcileDelayMs ? { reconcileDelayMs: deps.reconcileDelayMs } : {}),
  };
  const lastPrice = last === undefined ? null : Number(last);
  // A range grid (docs/trading-rules.md §2.6) rests limit orders: its own runner, the same deps.
  if (row.botType === 'range')
    return new RangeRunner(
      identity,
      // JSON has no Infinity: the levels it lost are worked out again.
      reviveRange(row.engineState as unknown as RangeState),
      engineRules,
      runnerDeps,
      lastPrice,
    );
  return new BotRunner(
    identity,
    row.engineState as unknown as EngineState,
    engineRules,
    runnerDeps,
    lastPrice,
  );
}

/**
 * Leased mode: the bot's orders go out only while its lease is trusted here (`mayRun`: held, before its local
 * deadline), checked as each order leaves. One held back fails with `LeaseLapsedError`, an outcome the runtime
 * treats as unknown: the order is looked up before it is ever sent.
 */
function heldBackWithoutLease(
  exchange: Exchange,
  botId: string,
  mayRun: (botId: string) => boolean,
): Exchange {
  const placeOrder: Exchange['placeOrder'] = (input) =>
    mayRun(botId) ? exchange.placeOrder(input) : Promise.reject(new LeaseLapsedError(input.clientOrderId));
  return new Proxy(exchange, {
    get(target, key) {
      if (key === 'placeOrder') return placeOrder;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The user's exchange, measuring tick-to-order latency and counting failed calls for /metrics.
 * `takeTickEmittedAt` answers the emission time of the tick the bot acts on, once (undefined after). A limit
 * order placed on a tick after a look-up that showed a fill is a range grid's answer: it is also measured from
 * that look-up's answer (`fillToAnswer`).
 */
export function instrumentExchange(
  exchange: Exchange,
  metrics: WorkerMetrics,
  takeTickEmittedAt: () => number | undefined,
): Exchange {
  const counted = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      metrics.exchangeError(isExchangeError(error) ? error.kind : 'unknown');
      throw error;
    }
  };
  /** When a look-up last showed a fill, until the next order. */
  let fillShownAt: number | undefined;
  const placeOrder: Exchange['placeOrder'] = (input) => {
    const now = performance.now();
    const emittedAt = takeTickEmittedAt();
    if (emittedAt !== undefined) {
      metrics.tickToOrder((now - emittedAt) / 1000, input.type);
      if (input.type === 'limit' && fillShownAt !== undefined)
        metrics.fillToAnswer((now - fillShownAt) / 1000);
    }
    fillShownAt = undefined;
    return counted(() => exchange.placeOrder(input));
  };
  const fetchOrder: Exchange['fetchOrder'] = async (...args) => {
    const found = await counted(() => exchange.fetchOrder(...args));
    if (found.found && Number(found.order.filledQuantity) > 0) fillShownAt = performance.now();
    return found;
  };
  return new Proxy(exchange, {
    get(target, key) {
      if (key === 'placeOrder') return placeOrder;
      if (key === 'fetchOrder') return fetchOrder;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
