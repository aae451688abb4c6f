import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseFlag } from '@gridbot/shared';
import { z } from 'zod';
import { type PlatformConfig, platformConfigFromEnv } from './platform-config';

const flag = (defaultValue: boolean) =>
  z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^(true|false)$/i.test(v), "must be 'true' or 'false'")
    .transform((v) => parseFlag(v, defaultValue));

/** Binance's budgets (`BINANCE_LIMITS` of packages/exchange) whose limits BINANCE_LIMITS may set. */
const BINANCE_BUDGETS = ['spotWeight', 'spotOrders', 'usdmWeight', 'usdmOrders', 'usdmFundingRate'] as const;
const binanceLimits = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON' });
      return z.NEVER;
    }
  })
  .pipe(
    z.partialRecord(
      z.enum(BINANCE_BUDGETS),
      z.array(z.tuple([z.number().int().positive(), z.number().int().positive()])).min(1),
    ),
  );

/** Process roles of docs/architecture.md §1: all = embedded; api, worker and market split one deployment. */
export const ROLES = ['all', 'api', 'worker', 'market'] as const;
export type Role = (typeof ROLES)[number];

const baseSchema = z.object({
  /** all (default, one process) | api (HTTP only) | worker (bots only) | market (publishes the feed's ticks). */
  ROLE: z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` }).default('all'),
  /** Redis for the cross-process bus and rate limits; required by every role but all. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/.+/, 'must be a redis:// or rediss:// URL')
    .optional(),
  /**
   * Put before every Redis channel and key, so deployments sharing a Redis stay apart (pub/sub ignores the
   * database index). Default: from the database name, else DATA_DIR (`redisPrefixOf`).
   */
  REDIS_PREFIX: z
    .string()
    .regex(/^\S{1,200}$/, 'must be 1 to 200 characters without spaces')
    .optional(),
  /** Lease time of a worker's bots: a dead worker's bots move to the others within this time. */
  LEASE_MS: z.coerce.number().int().min(500, 'must be at least 500').default(15_000),
  /** How often a worker looks for queued commands and free leases it missed on the bus. */
  WORKER_POLL_MS: z.coerce.number().int().min(100, 'must be at least 100').default(2_000),
  /** This worker's id in the lease table; default host-pid-random. */
  WORKER_ID: z.string().min(1).max(100).optional(),
  /** Pool size of the PostgreSQL connection of this process. */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Address to listen on; default 127.0.0.1 for the embedded role, 0.0.0.0 for the split roles. */
  HOST: z.string().min(1).optional(),
  /** The dev outbox at /dev/mailbox (loopback callers only); refused in production. */
  DEV_MAILBOX: flag(false),
  /** Which proxies' X-Forwarded-For to believe: off, a hop count, or a comma-separated IP/CIDR list. */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const parsed = parseTrustProxy(v);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
  /** Webhooks may reach loopback and private addresses: for a receiver under local testing; refused in production. */
  WEBHOOK_ALLOW_PRIVATE: flag(false),
  /** Bearer token for /metrics; without it /metrics answers loopback callers only. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Gridbot <no-reply@gridbot.local>'),
  ADMIN_EMAIL: z.string().email().optional(),
  /** Where links in e-mails point; defaults to http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  SUBSCRIPTION_ENABLED: flag(true),
  /** The platform's Telegram bot (from @BotFather); Telegram notifications are off without it. */
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'must be a Telegram bot token')
    .optional(),
  /** The bot's @username, shown on the settings page so users know whom to message. */
  TELEGRAM_BOT_USERNAME: z.string().optional(),
  /** The Bot API's base URL (tests point it at a loopback double). */
  TELEGRAM_API_URL: z.string().url().default('https://api.telegram.org'),
  SEED_DEMO: flag(true),
  /** Market data: simulated (default), historical replay, or an exchange's websockets (Binance, Bybit, OKX). */
  MARKET_FEED: z.enum(['sim', 'replay', 'binance', 'bybit', 'okx']).default('sim'),
  MARKET_REPLAY_DIR: z.string().default('fixtures/replay'),
  /** The real Binance candles that ship with the app, for backtests on the simulated market. */
  CANDLE_HISTORY_DIR: z.string().default('fixtures/history'),
  MARKET_SPEED: z.coerce.number().positive().default(60),
  MARKET_SEED: z.coerce.number().int().default(1),
  /** Funding rate of paper futures, percent per 8 h, where the feed has none (sim; replay pairs without a file). */
  MARKET_FUNDING_PCT: z.coerce.number().min(-3).max(3).default(0.01),
  /**
   * Where orders go: the paper exchange (default), or `binance`, the live mode: each user's orders go to the
   * exchange of their own key (Binance, Bybit or OKX) through ccxt.
   */
  EXCHANGE: z.enum(['paper', 'binance']).default('paper'),
  BINANCE_SANDBOX: flag(false),
  /**
   * Replaces the origin of every Binance REST URL (spot /api, /sapi, futures /fapi): a regional endpoint,
   * or a Binance-compatible server for tests. Unset: Binance's own hosts.
   */
  BINANCE_REST_URL: z.string().url().optional(),
  /**
   * Binance's limits where they are not the ones Binance publishes for every account (an account granted higher
   * order limits, `GET /api/v3/rateLimit/order`; a Binance-compatible server's own): JSON, per budget, the
   * windows as `[limit, windowMs]` pairs, e.g. `{"usdmOrders":[[1200,60000],[300,10000]]}`. A budget named
   * replaces all its windows; the budgets spend 90 % of each limit, as of the published ones.
   */
  BINANCE_LIMITS: binanceLimits.optional(),
  /**
   * The name of the IP address this process reaches the exchanges from, in its request budget's keys: processes
   * that leave by one address must share a name (the default, `default`, assumes they all do).
   */
  EXCHANGE_EGRESS: z
    .string()
    .regex(/^[\w.:-]{1,100}$/, 'must be 1 to 100 letters, digits, dots, colons or dashes')
    .default('default'),
  /** The same as BINANCE_REST_URL, named as the other exchanges' overrides are. */
  EXCHANGE_REST_URL_BINANCE: z.string().url().optional(),
  /** Replaces the origin of every Bybit REST URL (V5 /v5/...): a Bybit-compatible server for tests. */
  EXCHANGE_REST_URL_BYBIT: z.string().url().optional(),
  /** Replaces the origin of every OKX REST URL (API v5 /api/v5/...): an OKX-compatible server for tests. */
  EXCHANGE_REST_URL_OKX: z.string().url().optional(),
  PAPER_START_USDT: z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be a positive decimal number')
    .default('10000'),
  /** 32-byte key (64 hex characters or base64) for API secrets at rest; else a key file in DATA_DIR. */
  MASTER_KEY: z.string().optional(),
  /** The public IP users whitelist on Binance (API Setting); else this machine's address. */
  SERVER_PUBLIC_IP: z.string().optional(),
  // warn keeps the console of `npm start` readable; production deployments set info.
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  /** Where SIGUSR2 writes CPU profiles (first signal starts one, the next writes it); off when unset. */
  CPU_PROFILE_DIR: z.string().min(1).optional(),
});

/** A hop count, or IPs/CIDRs (and proxy-addr's names loopback, linklocal, uniquelocal); a string is an error. */
export function parseTrustProxy(value: string | undefined): false | number | string[] | string {
  const v = value?.trim() ?? '';
  if (v === '' || /^(false|0)$/i.test(v)) return false;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v.split(',').map((e) => e.trim());
  const valid = (entry: string) => {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || extra !== undefined) return false;
    if (prefix === undefined) return true;
    return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
  };
  const bad = entries.find((e) => !valid(e));
  if (bad !== undefined)
    return `must be false, a hop count, or a comma-separated list of IP addresses or CIDRs ('${bad}' is none of these)`;
  return entries;
}

// A split deployment shares state through PostgreSQL and Redis: an embedded PGlite or an in-process bus
// in one of its processes would silently split the system in two.
/** A feed every process reads from the exchange itself (websockets), rather than from ROLE=market's relay. */
export function isExchangeFeed(feed: Env['MARKET_FEED']): feed is 'binance' | 'bybit' | 'okx' {
  return feed === 'binance' || feed === 'bybit' || feed === 'okx';
}

const envSchema = baseSchema.superRefine((env, ctx) => {
  if (env.DEV_MAILBOX && env.NODE_ENV === 'production')
    ctx.addIssue({
      code: 'custom',
      path: ['DEV_MAILBOX'],
      message: 'must not be true with NODE_ENV=production (it lists every e-mail, reset links included)',
    });
  // A webhook to a private address lets any user make the server call inside its own network.
  if (env.WEBHOOK_ALLOW_PRIVATE && env.NODE_ENV === 'production')
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_ALLOW_PRIVATE'],
      message:
        'must not be true with NODE_ENV=production (users could make the server call private addresses)',
    });
  // Bots decide on the feed's prices and their orders fill at Binance's: on Binance's own hosts a simulated
  // or replayed market would buy and sell real coins at levels the real market never reached. Another
  // exchange's real market differs from Binance's by the spread between exchanges, which a grid's levels
  // (at least the fees apart) absorb. The testnets
  // and a Binance-compatible server (BINANCE_REST_URL) may follow another market; the market role sends nothing.
  const realBinance = env.EXCHANGE === 'binance' && !env.BINANCE_SANDBOX && !env.BINANCE_REST_URL;
  if (realBinance && env.ROLE !== 'market' && !isExchangeFeed(env.MARKET_FEED))
    ctx.addIssue({
      code: 'custom',
      path: ['MARKET_FEED'],
      message:
        'must be a real market (binance, bybit or okx) with EXCHANGE=binance on Binance itself (sim and replay are for the paper exchange, BINANCE_SANDBOX or a Binance-compatible server at BINANCE_REST_URL)',
    });
  if (env.ROLE === 'all') return;
  if (env.ROLE !== 'market' && !env.DATABASE_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['DATABASE_URL'],
      message: `is required with ROLE=${env.ROLE} (PostgreSQL shared by every process)`,
    });
  if (!env.REDIS_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['REDIS_URL'],
      message: `is required with ROLE=${env.ROLE} (Redis carries commands and ticks between processes)`,
    });
  if (env.ROLE !== 'market' && !env.MASTER_KEY)
    ctx.addIssue({
      code: 'custom',
      path: ['MASTER_KEY'],
      message: `is required with ROLE=${env.ROLE} (every process must open the same API secrets)`,
    });
  // The market role has no database to derive the prefix from: its ticks would go where no worker listens.
  if (env.ROLE === 'market' && !env.REDIS_PREFIX && !env.DATABASE_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['REDIS_PREFIX'],
      message:
        "is required with ROLE=market without DATABASE_URL (the other processes' prefix comes from their database name)",
    });
  if (env.ROLE === 'market' && isExchangeFeed(env.MARKET_FEED))
    ctx.addIssue({
      code: 'custom',
      path: ['MARKET_FEED'],
      message: `ROLE=market publishes the sim or replay feed; with ${env.MARKET_FEED} every process reads ${env.MARKET_FEED} itself`,
    });
});

export type Env = z.infer<typeof envSchema> & { HOST: string };

/** Parses the environment once at boot; a bad value stops the process with the names of the bad keys. */
export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const binanceUrl = source.BINANCE_REST_URL ?? source.EXCHANGE_REST_URL_BINANCE;
  if (
    source.BINANCE_REST_URL &&
    source.EXCHANGE_REST_URL_BINANCE &&
    binanceUrl !== source.EXCHANGE_REST_URL_BINANCE
  )
    throw new Error(
      'Invalid environment: EXCHANGE_REST_URL_BINANCE: differs from BINANCE_REST_URL (set one)',
    );
  const result = envSchema.safeParse(binanceUrl ? { ...source, BINANCE_REST_URL: binanceUrl } : source);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  // The embedded default serves one machine; a split role runs behind a load balancer that must reach it.
  return { ...result.data, HOST: result.data.HOST ?? (result.data.ROLE === 'all' ? '127.0.0.1' : '0.0.0.0') };
}

/**
 * The deployment's Redis prefix: REDIS_PREFIX, else `gridbot:<database name>:` (every process of a split
 * deployment names the same database), else `gridbot:<absolute DATA_DIR>:` (one embedded process with Redis
 * for its rate limits). Two deployments whose databases share a name must set REDIS_PREFIX to share a Redis.
 */
export function redisPrefixOf(env: Pick<Env, 'REDIS_PREFIX' | 'DATABASE_URL' | 'DATA_DIR'>): string {
  if (env.REDIS_PREFIX) return env.REDIS_PREFIX;
  if (env.DATABASE_URL) {
    const name = decodeURIComponent(new URL(env.DATABASE_URL).pathname.replace(/^\//, ''));
    return `gridbot:${name || 'postgres'}:`;
  }
  return `gridbot:${resolve(env.DATA_DIR)}:`;
}

/** What the modules need to know about the deployment, independent of process.env. */
export interface AppConfig {
  production: boolean;
  /** GET /dev/mailbox for loopback callers (DEV_MAILBOX=true, never in production). */
  devMailbox?: boolean;
  /** Webhooks may reach loopback and private addresses (WEBHOOK_ALLOW_PRIVATE=true, never in production). */
  webhookAllowPrivate?: boolean;
  /** Fastify's trustProxy: false (default), a hop count, or the proxies' addresses. */
  trustProxy?: false | number | string[];
  /** Which exchange orders go to; decides what "connected" means in API Setting. */
  exchange: 'paper' | 'binance';
  serverPublicIp: string | undefined;
  publicUrl: string;
  subscriptionEnabled: boolean;
  adminEmail: string | undefined;
  /** Platform service settings (deposits, withdrawals, free profit limit); defaults when absent. */
  platform?: PlatformConfig;
  /** The platform's Telegram bot; absent: Telegram notifications are unavailable. */
  telegram?: TelegramConfig;
}

export interface TelegramConfig {
  token: string;
  username: string | null;
  apiUrl: string;
}

export function appConfigFromEnv(env: Env, source: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    production: env.NODE_ENV === 'production',
    devMailbox: env.DEV_MAILBOX && env.NODE_ENV !== 'production',
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE && env.NODE_ENV !== 'production',
    trustProxy: env.TRUST_PROXY as false | number | string[],
    exchange: env.EXCHANGE,
    serverPublicIp: env.SERVER_PUBLIC_IP,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    subscriptionEnabled: env.SUBSCRIPTION_ENABLED,
    adminEmail: env.ADMIN_EMAIL,
    platform: platformConfigFromEnv(source),
    telegram: env.TELEGRAM_BOT_TOKEN
      ? {
          token: env.TELEGRAM_BOT_TOKEN,
          username: env.TELEGRAM_BOT_USERNAME ?? null,
          apiUrl: env.TELEGRAM_API_URL.replace(/\/$/, ''),
        }
      : undefined,
  };
}
