/**
 * Partial fills of a resting order (docs/trading-rules.md §2.6 "Live (Binance)": a partial fill keeps the order
 * on the book and books what filled). Spot grid 90–110 in 4 levels, 1000 USDT at 100: q = 2.597 (see
 * range.step.test.ts); the start buys 2 × q = 5.194 at 100 (519.4 USDT, commission 0.005194 of the coin).
 */

import { type RangeStrategy, rangeStrategySchema } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { TEST_RULES } from '../../testing/harness';
import type { Fill } from '../../types';
import { applyRangeFill } from './range.fill';
import { createRange, type RangeState } from './range.state';
import { stepRange } from './range.step';

const T0 = Date.UTC(2024, 0, 1);

const strategy = (): RangeStrategy =>
  rangeStrategySchema.parse({ type: 'range', lower: 90, upper: 110, grids: 4 });

/** The grid at 100 with its start buy filled and its four orders resting. */
function resting(): RangeState {
  let s = createRange({
    params: strategy(),
    investment: 1000,
    market: 'spot',
    rules: TEST_RULES,
    startTimeMs: T0,
  });
  const start = stepRange(s, { price: 100, timeMs: T0 }, TEST_RULES);
  const buy = start.intents[0]!;
  s = applyRangeFill(start.state, {
    seq: buy.seq,
    side: 'buy',
    price: '100',
    qty: '5.194',
    quote: '519.4',
    fee: '0.005194',
    feeAsset: 'base',
    timeMs: T0,
  }).state;
  return stepRange(s, { price: 100, timeMs: T0 }, TEST_RULES).state;
}

const part = (seq: number, side: 'buy' | 'sell', price: number, qty: string, quote: string, fee: string) =>
  ({
    seq,
    side,
    price: String(price),
    qty,
    quote,
    fee,
    feeAsset: side === 'buy' ? 'base' : 'quote',
    timeMs: T0,
  }) as Fill;

describe('a range grid order filled in parts', () => {
  it('keeps a partly filled buy on the book, holding only its rest, and answers it once it is whole', () => {
    const s = resting();
    const order = s.orders.find((o) => o.level === 1)!;
    expect(order).toMatchObject({ side: 'buy', price: 95, qty: 2.597 });
    // 1 of 2.597 at 95: 95 USDT spent, commission 0.001 of the coin.
    const first = applyRangeFill(s, part(order.seq, 'buy', 95, '1', '95', '0.001'));
    expect(first.applied).toBe(true);
    expect(first.state.orders.find((o) => o.seq === order.seq)).toMatchObject({
      qty: 2.597,
      filled: { qty: 1, quote: 95, fee: 0.001 },
    });
    expect(first.state.queue).toEqual([]);
    // Coin: 5.194 − 0.005194 = 5.188806 held, + 0.999 = 6.187806; USDT: 1000 − 519.4 − 95 = 385.6.
    expect(s.base).toBe(5.188806);
    expect(first.state.base).toBe(6.187806);
    expect(first.state.quote).toBe(385.6);
    // The order held 2.597 × 95 = 246.715 USDT; its rest, 1.597 × 95 = 151.715.
    expect(first.state.lockedQuote).toBeCloseTo(s.lockedQuote - 95, 9);
    expect(first.state.stats.trades).toBe(s.stats.trades + 1);

    // The rest, 1.597 at 95 = 151.715 USDT, commission 0.001597: the order is done and a sell at level 2
    // answers it, its cost what both parts spent, 246.715 USDT.
    const second = applyRangeFill(first.state, part(order.seq, 'buy', 95, '1.597', '151.715', '0.001597'));
    expect(second.state.orders.some((o) => o.seq === order.seq)).toBe(false);
    expect(second.state.queue).toEqual([{ level: 2, side: 'sell', cost: 246.715 }]);
    expect(second.state.lockedQuote).toBeCloseTo(s.lockedQuote - 246.715, 9);

    // The same as one whole fill, but for the trade count.
    const whole = applyRangeFill(s, part(order.seq, 'buy', 95, '2.597', '246.715', '0.002597')).state;
    expect({ ...second.state, stats: { ...second.state.stats, trades: 0 } }).toEqual({
      ...whole,
      stats: { ...whole.stats, trades: 0 },
    });
  });

  it('books a sell pair profit over all its parts, once', () => {
    const s = resting();
    const sell = s.orders.find((o) => o.level === 3)!;
    // The sell at 105 sells q = 2.597 bought at 100 (cost 259.7): first 2 (210 USDT, fee 0.21), then 0.597
    // (62.685 USDT, fee 0.062685). Pair profit = 272.685 − 0.272685 − 259.7 = 12.712315.
    const first = applyRangeFill(s, part(sell.seq, 'sell', 105, '2', '210', '0.21'));
    expect(first.pnl).toBe(0);
    expect(first.state.stats.matchedTrades).toBe(0);
    expect(first.state.lockedBase).toBeCloseTo(s.lockedBase - 2, 9);
    const second = applyRangeFill(first.state, part(sell.seq, 'sell', 105, '0.597', '62.685', '0.062685'));
    expect(sell.cost).toBe(259.7);
    expect(second.pnl).toBeCloseTo(12.712315, 9);
    expect(second.state.stats.matchedTrades).toBe(1);
    expect(second.state.queue).toEqual([{ level: 2, side: 'buy', cost: 0 }]);
    // A fill of an order no longer held is not booked again.
    expect(
      applyRangeFill(second.state, part(sell.seq, 'sell', 105, '0.597', '62.685', '0.062685')).applied,
    ).toBe(false);
  });
});
