/**
 * One rate limiter per process for every user's Binance client (docs/trading-rules.md §3). Binance counts request
 * weight per IP, not per API key ("LIMITS": "The limits on the API are based on the IPs, not the API
 * keys"), so all clients of one venue share one weight bucket, and a 429 or 418 seen by any client
 * pauses them all: 429 for its `Retry-After`, 418 (IP banned) until the ban ends.
 */

interface WeightThrottler {
  throttle(cost?: number): Promise<unknown>;
}

export interface RateGateClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/** Pause after a 429/418 that carries no `Retry-After` (seconds as Binance counts them). */
const DEFAULT_PAUSE_MS: Readonly<Record<429 | 418, number>> = { 429: 1_000, 418: 120_000 };

export class BinanceRateGate {
  private pausedUntilMs = 0;
  private readonly throttlers = new Map<string, WeightThrottler>();

  constructor(
    private readonly clock: RateGateClock = {
      now: Date.now,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    },
  ) {}

  /** The shared weight bucket of a venue: the first client's throttler, handed to every later client. */
  throttlerFor(venue: string, own: WeightThrottler): WeightThrottler {
    const shared = this.throttlers.get(venue);
    if (shared) return shared;
    this.throttlers.set(venue, own);
    return own;
  }

  /** Binance answered 429 or 418: no request of this process goes out before `Retry-After` has passed. */
  rateLimited(status: 429 | 418, retryAfterSec: number | undefined): void {
    const ms =
      retryAfterSec !== undefined && Number.isFinite(retryAfterSec) && retryAfterSec >= 0
        ? retryAfterSec * 1000
        : DEFAULT_PAUSE_MS[status];
    this.pausedUntilMs = Math.max(this.pausedUntilMs, this.clock.now() + ms);
  }

  /** Milliseconds left of the current pause (0 when requests may go). */
  pausedForMs(): number {
    return Math.max(0, this.pausedUntilMs - this.clock.now());
  }

  /** Waits out any pause; a pause extended meanwhile (another 429) is waited out too. */
  async wait(): Promise<void> {
    for (let left = this.pausedForMs(); left > 0; left = this.pausedForMs()) await this.clock.sleep(left);
  }
}

/** The process's gate, shared by every `BinanceExchange` that is not given its own (tests). */
export const processRateGate = new BinanceRateGate();
