import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { createDb, type DbHandle } from '@gridbot/db';
import {
  FairRequestBudget,
  type MarketFeed,
  MemoryBudgetCounter,
  RedisBudgetCounter,
  RelayFeed,
  type RequestBudget,
} from '@gridbot/exchange';
import { Redis } from 'ioredis';
import { type Bus, MemoryBus } from '../bus/bus';
import { RedisBus } from '../bus/redis-bus';
import { tickSource } from '../bus/tick-relay';
import { type Env, isExchangeFeed, redisPrefixOf } from '../config/env';
import { systemClock } from '../lib/clock';
import { SecretBox } from '../lib/secret-box';
import { createMarketFeed } from '../modules/exchange';
import { type RateLimit, RateLimiter, RedisRateLimiter } from '../plugins/rate-limit';

export type Log = (message: string, extra?: Record<string, unknown>) => void;

export function dataDirOf(env: Env): string {
  return resolve(env.DATA_DIR);
}

export async function openDatabase(env: Env): Promise<DbHandle> {
  return createDb({
    databaseUrl: env.DATABASE_URL,
    dataDir: join(dataDirOf(env), 'pg'),
    maxConnections: env.DB_POOL_SIZE,
  });
}

/** Redis pub/sub when REDIS_URL is set, else the in-process bus (embedded). */
export async function openBus(env: Env, log: Log): Promise<Bus> {
  if (!env.REDIS_URL) return new MemoryBus();
  const bus = new RedisBus({ url: env.REDIS_URL, prefix: redisPrefixOf(env), log });
  await bus.connect();
  return bus;
}

/** Redis counters when REDIS_URL is set (every API process counts together), else this process's memory. */
export function openRateLimiter(env: Env, log: Log): { limiter: RateLimit; close: () => void } {
  if (!env.REDIS_URL) return { limiter: new RateLimiter(systemClock), close: () => undefined };
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', (error: Error) => log('rate limiter redis error', { err: error.message }));
  const limiter = new RedisRateLimiter(redis, redisPrefixOf(env), (error) =>
    log('rate limit check skipped', { err: String(error) }),
  );
  return { limiter, close: () => redis.disconnect() };
}

/**
 * The request budget every exchange client of the process spends (docs/operations.md "Request budgets"): counted
 * in Redis with split roles, so that every api and worker process together stays under each exchange limit and a
 * back-off seen by one pauses all; in this process's memory with ROLE=all (it is the only one).
 */
export function openRequestBudget(env: Env, log: Log): { budget: RequestBudget; close: () => void } {
  if (env.ROLE === 'all' || !env.REDIS_URL)
    return { budget: new FairRequestBudget(new MemoryBudgetCounter()), close: () => undefined };
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', (error: Error) => log('request budget redis error', { err: error.message }));
  let warnedAtMs = 0;
  const counter = new RedisBudgetCounter(redis, redisPrefixOf(env), {
    // Once a minute at most: while Redis is away every request would say it.
    onError: (error) => {
      if (Date.now() - warnedAtMs < 60_000) return;
      warnedAtMs = Date.now();
      log('request budget counted in this process only (Redis did not answer)', { err: String(error) });
    },
  });
  return { budget: new FairRequestBudget(counter), close: () => redis.disconnect() };
}

/**
 * The prices an api or worker process sees: with a sim or replay market, the ticks ROLE=market publishes
 * (every process sees the same prices); with an exchange's market, the process's own websocket feed.
 */
export async function feedForRole(env: Env, bus: Bus, log: Log): Promise<MarketFeed> {
  const onSubscriberError = (error: unknown) => log('tick subscriber failed', { err: String(error) });
  if (isExchangeFeed(env.MARKET_FEED)) return createMarketFeed(env, onSubscriberError);
  return new RelayFeed({ kind: env.MARKET_FEED, source: tickSource(bus), onSubscriberError });
}

/** This worker's id in the lease table: WORKER_ID, or host-pid-random (unique across restarts). */
export function workerIdOf(env: Env): string {
  return env.WORKER_ID ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/** SIGINT/SIGTERM run `shutdown` once, then the process exits. */
export function onShutdown(log: Log, shutdown: () => Promise<void>): void {
  let done = false;
  const handler = (signal: string) => {
    if (done) return;
    done = true;
    log(`${signal}: shutting down`);
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        log('shutdown failed', { err: String(error) });
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => handler('SIGINT'));
  process.once('SIGTERM', () => handler('SIGTERM'));
}

/**
 * The box that seals API secrets: MASTER_KEY, or the key file in the data directory. That file sits beside
 * the embedded database, so one copy of DATA_DIR (a backup, a stolen disk) opens every secret: say so.
 */
export function openSecretBox(env: Env, log: (line: string) => void): SecretBox {
  const keyFile = join(dataDirOf(env), 'master.key');
  if (!env.MASTER_KEY)
    log(
      `Warning: MASTER_KEY is not set, so API secrets are sealed with ${keyFile}, inside DATA_DIR beside the database: one backup of DATA_DIR holds both. Set MASTER_KEY (64 hex characters) from a secret store for real keys.`,
    );
  return SecretBox.load(env.MASTER_KEY, keyFile);
}
