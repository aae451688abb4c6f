import { authMessages } from '@gridbot/shared';
import type { Clock } from '../lib/clock';
import { HttpError } from '../lib/http-error';

export interface RateRule {
  /** Attempts allowed per window. */
  limit: number;
  windowMs: number;
}

/**
 * Fixed-window counters in this process's memory. Auth endpoints count per IP and per account, so a
 * spread-out guessing attack and a single noisy client are both stopped. (With several API processes each
 * keeps its own counters; the scale-out issue moves them to Redis.)
 */
export class RateLimiter {
  private readonly windows = new Map<string, { startMs: number; count: number }>();

  constructor(private readonly clock: Clock) {}

  /** Counts one attempt and throws 429 with a clear message once the rule's limit is passed. */
  hit(key: string, rule: RateRule): void {
    const nowMs = this.clock.now().getTime();
    const current = this.windows.get(key);
    if (!current || nowMs - current.startMs >= rule.windowMs) {
      this.windows.set(key, { startMs: nowMs, count: 1 });
      this.sweep(nowMs, rule.windowMs);
      return;
    }
    current.count += 1;
    if (current.count > rule.limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((current.startMs + rule.windowMs - nowMs) / 1000));
      throw new HttpError(429, authMessages.tooManyAttempts(retryAfterSeconds), { retryAfterSeconds });
    }
  }

  private sweep(nowMs: number, windowMs: number): void {
    if (this.windows.size < 10_000) return;
    for (const [key, value] of this.windows) if (nowMs - value.startMs >= windowMs) this.windows.delete(key);
  }
}

const FIFTEEN_MINUTES = 15 * 60_000;

/** The limits of DESIGN §3 "rate-limit auth", per IP and per account. */
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
