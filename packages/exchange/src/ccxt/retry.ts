import type { ExchangeError } from '../exchange-error';
import { ErrorCode } from '../exchange-error';

export interface RetryPolicy {
  /** Tries in all, the first included. Default 4. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  /** Uniform [0, 1) for jitter. */
  random: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/**
 * Delay before retry number `attempt` (1-based): exponential, capped, with "equal jitter" (half fixed,
 * half random) so that many bots hitting a 429 together do not come back in lockstep. Rate limits
 * (429/418) start from a longer base: Binance bans IPs that keep hammering.
 */
export function backoffMs(policy: RetryPolicy, attempt: number, error: ExchangeError): number {
  const base = error.code === ErrorCode.tooManyRequests ? policy.baseDelayMs * 4 : policy.baseDelayMs;
  const ceiling = Math.min(policy.maxDelayMs, base * 2 ** (attempt - 1));
  return ceiling / 2 + (policy.random() * ceiling) / 2;
}

/**
 * Runs `call` until it succeeds, fails with a non-retryable error, or the attempts run out (the last
 * error is thrown, still `retryable`, so the worker backs off further: docs/trading-rules.md §3). `beforeRetry` can
 * repair state first (re-sync the clock after -1021).
 */
export async function withRetry<T>(
  policy: RetryPolicy,
  call: () => Promise<T>,
  toError: (error: unknown) => ExchangeError,
  beforeRetry: (error: ExchangeError) => Promise<void> = async () => {},
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (raw) {
      const error = toError(raw);
      if (error.kind !== 'retryable' || attempt >= policy.attempts) throw error;
      await policy.sleep(backoffMs(policy, attempt, error));
      await beforeRetry(error);
    }
  }
}
