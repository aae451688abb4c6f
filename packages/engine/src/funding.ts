/**
 * Futures funding times and payments (docs/trading-rules.md §2.2): at 00:00, 08:00 and 16:00 UTC an open
 * long pays its notional × the rate when the rate is positive and receives it when the rate is negative.
 * Shared by the backtest and the paper runtime, so both book the same amount.
 */
import { FUNDING_INTERVAL_MS } from '@gridbot/shared';
import { money } from './money';

export { FUNDING_INTERVAL_MS, FUNDING_JITTER_MS } from '@gridbot/shared';

/** The latest funding time at or before `ms`. */
export function fundingTimeAtOrBefore(ms: number): number {
  return Math.floor(ms / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;
}

/** Funding times `t` with `fromMs < t ≤ toMs`, oldest first (none when time did not move forward). */
export function fundingTimesBetween(fromMs: number, toMs: number): number[] {
  const times: number[] = [];
  for (let t = (Math.floor(fromMs / FUNDING_INTERVAL_MS) + 1) * FUNDING_INTERVAL_MS; t <= toMs; ) {
    times.push(t);
    t += FUNDING_INTERVAL_MS;
  }
  return times;
}

/**
 * What a long position of `qty` at mark price `price` receives (> 0) or pays (< 0) at a funding time with
 * `rate` (a fraction per 8 h, as Binance publishes it), in USDT to 8 decimals.
 */
export function fundingPayment(qty: number, price: number, rate: number): number {
  if (!(qty > 0)) return 0;
  return money(qty).times(price).times(rate).negated().toDecimalPlaces(8).toNumber() || 0;
}
