import { parseFlag } from '@gridbot/shared';
import { z } from 'zod';

const flag = (defaultValue: boolean) =>
  z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^(true|false)$/i.test(v), "must be 'true' or 'false'")
    .transform((v) => parseFlag(v, defaultValue));

const envSchema = z.object({
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
}

export function appConfigFromEnv(env: Env): AppConfig {
  return {
    production: env.NODE_ENV === 'production',
    exchange: env.EXCHANGE,
    serverPublicIp: env.SERVER_PUBLIC_IP,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    subscriptionEnabled: env.SUBSCRIPTION_ENABLED,
    adminEmail: env.ADMIN_EMAIL,
  };
}
