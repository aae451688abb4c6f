import { parseFlag } from '@gridbot/shared';
import { z } from 'zod';
import { type PlatformConfig, platformConfigFromEnv } from '../modules/platform/platform-config';

const flag = (defaultValue: boolean) =>
  z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^(true|false)$/i.test(v), "must be 'true' or 'false'")
    .transform((v) => parseFlag(v, defaultValue));

/** Process roles of DESIGN §1 (issue #9): all = embedded; api, worker and market split one deployment. */
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
  HOST: z.string().default('0.0.0.0'),
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
  /** Market data: simulated (default), historical replay, or Binance websockets. */
  MARKET_FEED: z.enum(['sim', 'replay', 'binance']).default('sim'),
  MARKET_REPLAY_DIR: z.string().default('../shared/data'),
  MARKET_SPEED: z.coerce.number().positive().default(60),
  MARKET_SEED: z.coerce.number().int().default(1),
  /** Where orders go: the paper exchange (default) or Binance through ccxt with each user's keys. */
  EXCHANGE: z.enum(['paper', 'binance']).default('paper'),
  BINANCE_SANDBOX: flag(false),
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

// A split deployment shares state through PostgreSQL and Redis: an embedded PGlite or an in-process bus
// in one of its processes would silently split the system in two.
const envSchema = baseSchema.superRefine((env, ctx) => {
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
  if (env.ROLE === 'market' && env.MARKET_FEED === 'binance')
    ctx.addIssue({
      code: 'custom',
      path: ['MARKET_FEED'],
      message:
        'ROLE=market publishes the sim or replay feed; with binance every process reads Binance itself',
    });
});

export type Env = z.infer<typeof envSchema>;

/** Parses the environment once at boot; a bad value stops the process with the names of the bad keys. */
export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  return result.data;
}

/** What the modules need to know about the deployment, independent of process.env. */
export interface AppConfig {
  production: boolean;
  /** Which exchange orders go to; decides what "connected" means in API Setting. */
  exchange: 'paper' | 'binance';
  serverPublicIp: string | undefined;
  publicUrl: string;
  subscriptionEnabled: boolean;
  adminEmail: string | undefined;
  /** Platform service settings (issue #8: deposits, withdrawals, free profit limit); defaults when absent. */
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
