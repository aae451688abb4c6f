import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appConfigFromEnv, parseEnv, redisPrefixOf } from './env';

const split = {
  DATABASE_URL: 'postgres://db/gridbot',
  REDIS_URL: 'redis://cache:6379',
  MASTER_KEY: 'ab'.repeat(32),
};

describe('environment of the process roles', () => {
  it('defaults to the embedded role with nothing set', () => {
    expect(parseEnv({}).ROLE).toBe('all');
  });

  it('names every missing shared service of a split role', () => {
    expect(() => parseEnv({ ROLE: 'worker' })).toThrow(
      /DATABASE_URL: is required with ROLE=worker.*REDIS_URL: is required with ROLE=worker.*MASTER_KEY/,
    );
    expect(() => parseEnv({ ROLE: 'api', ...split, REDIS_URL: undefined })).toThrow(
      'REDIS_URL: is required with ROLE=api (Redis carries commands and ticks between processes)',
    );
  });

  it('rejects an unknown role and a bad Redis URL with the allowed values', () => {
    expect(() => parseEnv({ ROLE: 'bots' })).toThrow('ROLE: must be one of all, api, worker, market');
    expect(() => parseEnv({ ROLE: 'api', ...split, REDIS_URL: 'cache:6379' })).toThrow(
      'REDIS_URL: must be a redis:// or rediss:// URL',
    );
  });

  it('lets the market role run without a database, but not on Binance', () => {
    const market = { ROLE: 'market', REDIS_URL: split.REDIS_URL, REDIS_PREFIX: 'gridbot:prod:' };
    expect(parseEnv(market).ROLE).toBe('market');
    for (const feed of ['binance', 'bybit', 'okx'])
      expect(() => parseEnv({ ...market, MARKET_FEED: feed })).toThrow(
        `MARKET_FEED: ROLE=market publishes the sim or replay feed; with ${feed} every process reads ${feed} itself`,
      );
  });

  it('refuses real-money Binance trading on a simulated or replayed market', () => {
    // Bots decide on the feed's prices and the orders fill at Binance's: a simulated or replayed market would
    // buy and sell real coins at levels the real market never reached.
    for (const feed of [undefined, 'sim', 'replay']) {
      expect(() => parseEnv({ EXCHANGE: 'binance', MARKET_FEED: feed })).toThrow(
        'MARKET_FEED: must be a real market (binance, bybit or okx) with EXCHANGE=binance on Binance itself (sim and replay are for the paper exchange, BINANCE_SANDBOX or a Binance-compatible server at BINANCE_REST_URL)',
      );
    }
    for (const feed of ['binance', 'bybit', 'okx'])
      expect(parseEnv({ EXCHANGE: 'binance', MARKET_FEED: feed }).MARKET_FEED).toBe(feed);
    expect(parseEnv({ EXCHANGE: 'binance', BINANCE_SANDBOX: 'true' }).EXCHANGE).toBe('binance');
    const double = { EXCHANGE: 'binance', MARKET_FEED: 'replay', BINANCE_REST_URL: 'http://127.0.0.1:9000' };
    expect(parseEnv(double).BINANCE_REST_URL).toBe('http://127.0.0.1:9000');
    // The market role sends no order: it publishes the sim or replay feed whatever EXCHANGE says.
    const market = { ROLE: 'market', REDIS_URL: split.REDIS_URL, REDIS_PREFIX: 'gridbot:prod:' };
    expect(parseEnv({ ...market, EXCHANGE: 'binance' }).ROLE).toBe('market');
  });

  it("reads an account's own Binance limits as [limit, windowMs] pairs per budget", () => {
    const limits = '{"usdmOrders":[[2400,60000],[600,10000]],"spotWeight":[[12000,60000]]}';
    expect(parseEnv({ BINANCE_LIMITS: limits }).BINANCE_LIMITS).toEqual({
      usdmOrders: [
        [2400, 60_000],
        [600, 10_000],
      ],
      spotWeight: [[12_000, 60_000]],
    });
    expect(parseEnv({}).BINANCE_LIMITS).toBeUndefined();
    expect(() => parseEnv({ BINANCE_LIMITS: 'usdmOrders=2400' })).toThrow('BINANCE_LIMITS: must be JSON');
    expect(() => parseEnv({ BINANCE_LIMITS: '{"orders":[[1,1000]]}' })).toThrow('BINANCE_LIMITS');
    expect(() => parseEnv({ BINANCE_LIMITS: '{"spotWeight":[]}' })).toThrow('BINANCE_LIMITS');
  });

  it('reads lease timings as numbers', () => {
    const env = parseEnv({ ROLE: 'worker', ...split, LEASE_MS: '3000', WORKER_POLL_MS: '500' });
    expect([env.LEASE_MS, env.WORKER_POLL_MS]).toEqual([3000, 500]);
    expect(() => parseEnv({ LEASE_MS: '10' })).toThrow('LEASE_MS: must be at least 500');
  });

  it('lets webhooks reach private addresses only when told to, and never in production', () => {
    expect(appConfigFromEnv(parseEnv({}), {}).webhookAllowPrivate).toBe(false);
    const local = parseEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    expect(appConfigFromEnv(local, {}).webhookAllowPrivate).toBe(true);
    expect(() => parseEnv({ WEBHOOK_ALLOW_PRIVATE: 'true', NODE_ENV: 'production' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE: must not be true with NODE_ENV=production/,
    );
    expect(() => parseEnv({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(
      "WEBHOOK_ALLOW_PRIVATE: must be 'true' or 'false'",
    );
  });

  it('prefixes Redis with REDIS_PREFIX, else the database name, else DATA_DIR', () => {
    expect(redisPrefixOf(parseEnv({ ROLE: 'api', ...split }))).toBe('gridbot:gridbot:');
    expect(redisPrefixOf(parseEnv({ ROLE: 'api', ...split, REDIS_PREFIX: 'staging:' }))).toBe('staging:');
    expect(redisPrefixOf(parseEnv({ REDIS_URL: split.REDIS_URL, DATA_DIR: '/srv/a' }))).toBe(
      'gridbot:/srv/a:',
    );
    expect(redisPrefixOf(parseEnv({ REDIS_URL: split.REDIS_URL }))).toBe(`gridbot:${resolve('./data')}:`);
    // The market role has no database: it names the prefix, or the database the others derive it from.
    expect(() => parseEnv({ ROLE: 'market', REDIS_URL: split.REDIS_URL })).toThrow(
      /REDIS_PREFIX: is required with ROLE=market without DATABASE_URL/,
    );
    const market = parseEnv({ ROLE: 'market', REDIS_URL: split.REDIS_URL, DATABASE_URL: split.DATABASE_URL });
    expect(redisPrefixOf(market)).toBe('gridbot:gridbot:');
    expect(() => parseEnv({ REDIS_PREFIX: 'two words' })).toThrow(
      'REDIS_PREFIX: must be 1 to 200 characters',
    );
  });
});
