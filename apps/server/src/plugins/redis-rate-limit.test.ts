import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../testing/free-port';
import { startRedisServer } from '../testing/redis-server';
import { RedisRateLimiter } from './rate-limit';

// A private redis-server on a free port, so the shared one on 6379 is never disturbed.
let server: ChildProcess;
let redis: Redis;

beforeAll(async () => {
  const port = await freePort();
  server = await startRedisServer(port);
  redis = new Redis(`redis://127.0.0.1:${port}`);
});
afterAll(() => {
  redis.disconnect();
  server.kill('SIGKILL');
});

it('counts apart for deployments with different prefixes on one Redis, and together within one', async () => {
  const rule = { limit: 2, windowMs: 60_000 };
  const staging = new RedisRateLimiter(redis, 'gridbot:staging:');
  const production = new RedisRateLimiter(redis, 'gridbot:production:');
  const productionApi = new RedisRateLimiter(redis, 'gridbot:production:');
  await production.hit('login:ip:203.0.113.9', rule);
  await production.hit('login:ip:203.0.113.9', rule);
  // Staging's first attempts from the same address are its own.
  await expect(staging.hit('login:ip:203.0.113.9', rule)).resolves.toBeUndefined();
  await expect(staging.hit('login:ip:203.0.113.9', rule)).resolves.toBeUndefined();
  // Another api process of the same deployment sees production's count.
  await expect(productionApi.hit('login:ip:203.0.113.9', rule)).rejects.toMatchObject({ statusCode: 429 });
  expect((await redis.keys('*')).sort()).toEqual([
    'gridbot:production:rl:login:ip:203.0.113.9',
    'gridbot:staging:rl:login:ip:203.0.113.9',
  ]);
});

it('gives one attempt back within the window, never below zero and never to a key it has not counted', async () => {
  const rule = { limit: 2, windowMs: 60_000 };
  const limiter = new RedisRateLimiter(redis, 'gridbot:forgive:');
  await limiter.forgive('login:ip:198.51.100.7');
  expect(await redis.keys('gridbot:forgive:*')).toEqual([]);
  await limiter.hit('login:ip:198.51.100.7', rule);
  await limiter.hit('login:ip:198.51.100.7', rule);
  await limiter.forgive('login:ip:198.51.100.7');
  // Two counted, one given back: one more fits the limit of 2, the next does not.
  await expect(limiter.hit('login:ip:198.51.100.7', rule)).resolves.toBeUndefined();
  await expect(limiter.hit('login:ip:198.51.100.7', rule)).rejects.toMatchObject({ statusCode: 429 });
  // The window's expiry stays as the first attempt set it.
  expect(await redis.pttl('gridbot:forgive:rl:login:ip:198.51.100.7')).toBeGreaterThan(0);
});
