import { authMessages } from '@gridbot/shared';
import type { Clock } from '../lib/clock';
import { HttpError } from '../lib/http-error';

export interface RateRule {
  /** Attempts allowed per window. */
  limit: number;
  windowMs: number;
}

/** Counts attempts per key; `hit` throws 429 with a clear message once a rule's limit is passed. */
export interface RateLimit {
  hit(key: string, rule: RateRule): Promise<void>;
  /**
   * Takes back one attempt of the key's current window: a step that turned out to be part of one attempt
   * counted elsewhere (a right password answered "code required" is counted when the code comes).
   */
  forgive(key: string): Promise<void>;
}

function tooMany(retryAfterMs: number): HttpError {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpError(429, authMessages.tooManyAttempts(retryAfterSeconds), { retryAfterSeconds });
}

/**
 * Fixed-window counters in this process's memory (ROLE=all). Auth endpoints count per IP and per account, so
 * a spread-out guessing attack and a single noisy client are both stopped. Several API processes share
 * `RedisRateLimiter` instead.
 */
export class RateLimiter implements RateLimit {
  private readonly windows = new Map<string, { startMs: number; count: number }>();

  constructor(private readonly clock: Clock) {}

  async hit(key: string, rule: RateRule): Promise<void> {
    const nowMs = this.clock.now().getTime();
    const current = this.windows.get(key);
    if (!current || nowMs - current.startMs >= rule.windowMs) {
      this.windows.set(key, { startMs: nowMs, count: 1 });
      this.sweep(nowMs, rule.windowMs);
      return;
    }
    current.count += 1;
    if (current.count > rule.limit) throw tooMany(current.startMs + rule.windowMs - nowMs);
  }

  async forgive(key: string): Promise<void> {
    const current = this.windows.get(key);
    if (current && current.count > 0) current.count -= 1;
  }

  private sweep(nowMs: number, windowMs: number): void {
    if (this.windows.size < 10_000) return;
    for (const [key, value] of this.windows) if (nowMs - value.startMs >= windowMs) this.windows.delete(key);
  }
}

/** The commands `RedisRateLimiter` needs (an ioredis client has them). */
export interface RateLimitRedis {
  eval(script: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
}

// INCR and the window's expiry in one atomic step; answers [count, ms left in the window].
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

// One attempt back, within the window (DECR keeps the key's expiry); never below zero, never a new key.
const FORGIVE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return count`;

/**
 * The same fixed windows in Redis (REDIS_URL set), so every API process counts together. When Redis does not
 * answer, the request is let through: losing rate limits for a moment beats refusing every login.
 */
export class RedisRateLimiter implements RateLimit {
  private readonly prefix: string;

  constructor(
    private readonly redis: RateLimitRedis,
    /** The deployment's `REDIS_PREFIX`: deployments sharing a Redis count apart. */
    redisPrefix: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.prefix = `${redisPrefix}rl:`;
  }

  async hit(key: string, rule: RateRule): Promise<void> {
    let count: number;
    let ttlMs: number;
    try {
      const answer = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, rule.windowMs)) as [
        number,
        number,
      ];
      [count, ttlMs] = answer;
    } catch (error) {
      this.onError(error);
      return;
    }
    if (count > rule.limit) throw tooMany(ttlMs);
  }

  async forgive(key: string): Promise<void> {
    try {
      await this.redis.eval(FORGIVE_SCRIPT, 1, this.prefix + key);
    } catch (error) {
      this.onError(error);
    }
  }
}

const FIFTEEN_MINUTES = 15 * 60_000;

/** The limits of docs/trading-rules.md §3 "rate-limit auth", per IP and per account. */
export const authRateRules = {
  loginPerIp: { limit: 30, windowMs: FIFTEEN_MINUTES },
  loginPerAccount: { limit: 10, windowMs: FIFTEEN_MINUTES },
  signupPerIp: { limit: 20, windowMs: FIFTEEN_MINUTES },
  otpPerIp: { limit: 30, windowMs: FIFTEEN_MINUTES },
  otpPerAccount: { limit: 15, windowMs: FIFTEEN_MINUTES },
  resetPerIp: { limit: 20, windowMs: FIFTEEN_MINUTES },
  resetPerAccount: { limit: 5, windowMs: FIFTEEN_MINUTES },
  contactPerIp: { limit: 10, windowMs: FIFTEEN_MINUTES },
} satisfies Record<string, RateRule>;
