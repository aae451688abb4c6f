/**
 * Futures funding times and payments (docs/trading-rules.md §2.2): at each funding time of the symbol (every
 * `fundingIntervalHours` from 00:00 UTC; 00:00, 08:00 and 16:00 for most) an open long pays its size × the mark
 * price × the rate when the rate is positive and receives it when the rate is negative.
 * Shared by the backtest and the paper runtime, so both book the same amount.
 */
import { FUNDING_INTERVAL_MS } from '@gridbot/shared';
import { money } from './money';

export { FUNDING_INTERVAL_MS, FUNDING_JITTER_MS } from '@gridbot/shared';

/** The latest funding time at or before `ms`, for a symbol funding every `intervalMs` (`EngineRules`). */
export function fundingTimeAtOrBefore(ms: number, intervalMs = FUNDING_INTERVAL_MS): number {
  return Math.floor(ms / intervalMs) * intervalMs;
}

/** Funding times `t` with `fromMs < t ≤ toMs`, oldest first (none when time did not move forward). */
export function fundingTimesBetween(
  fromMs: number,
  toMs: number,
  intervalMs = FUNDING_INTERVAL_MS,
): number[] {
  const times: number[] = [];
  for (let t = (Math.floor(fromMs / intervalMs) + 1) * intervalMs; t <= toMs; ) {
    times.push(t);
    t += intervalMs;
  }
  return times;
}

/**
 * What a long position of `qty` at mark price `price` receives (> 0) or pays (< 0) at a funding time with
 * `rate` (a fraction per funding interval, as Binance publishes it), in USDT to 8 decimals.
 */
export function fundingPayment(qty: number, price: number, rate: number): number {
  if (!(qty > 0)) return 0;
  return money(qty).times(price).times(rate).negated().toDecimalPlaces(8).toNumber() || 0;
}
