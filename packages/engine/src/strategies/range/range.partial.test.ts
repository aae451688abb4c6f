/**
 * Partial fills of a resting order (docs/trading-rules.md §2.6 "Live (Binance)": a partial fill keeps the order
 * on the book and books what filled). Spot grid 90–110 in 4 levels, 1000 USDT at 100: q = 2.597 (see
 * range.step.test.ts); the start buys 2 × q = 5.194 at 100 (519.4 USDT, commission 0.005194 of the coin).
 */

import { type RangeStrategy, rangeStrategySchema } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { TEST_FUTURE_RULES, TEST_RULES } from '../../testing/harness';
import type { Fill } from '../../types';
import { applyRangeFill, restEnded } from './range.fill';
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

  it('rests the rest of a sell the exchange ended after a part under a new seq, and books its pair once', () => {
    const s = resting();
    const sell = s.orders.find((o) => o.level === 3)!;
    // 2 of the sell at 105 fill (210 USDT, fee 0.21), then the exchange expires it.
    const first = applyRangeFill(s, part(sell.seq, 'sell', 105, '2', '210', '0.21')).state;
    const ended = restEnded(first, sell.seq, TEST_RULES);
    // The rest, 2.597 − 2 = 0.597, goes out again at 105 under the next seq; the level's order keeps its
    // quantity, cost and booked part, which is now carried from the ended order.
    expect(ended.intents).toEqual([
      { type: 'PlaceLimit', seq: first.seq + 1, level: 3, side: 'sell', price: '105', qty: '0.597' },
    ]);
    const again = ended.state.orders.find((o) => o.level === 3)!;
    expect(again).toMatchObject({
      seq: first.seq + 1,
      qty: 2.597,
      cost: 259.7,
      filled: { qty: 2, quote: 210, fee: 0.21 },
      carried: { qty: 2, quote: 210, fee: 0.21 },
    });
    expect(ended.state.orders.some((o) => o.seq === sell.seq)).toBe(false);
    // Still locked: the rest's 0.597 of the coin, as before the exchange ended it.
    expect(ended.state.lockedBase).toBe(first.lockedBase);
    // A fill under the old seq is not booked; the rest under the new one closes the pair over both parts:
    // 272.685 − 0.272685 − 259.7 = 12.712315.
    expect(
      applyRangeFill(ended.state, part(sell.seq, 'sell', 105, '0.597', '62.685', '0.062685')).applied,
    ).toBe(false);
    const done = applyRangeFill(ended.state, part(again.seq, 'sell', 105, '0.597', '62.685', '0.062685'));
    expect(done.pnl).toBeCloseTo(12.712315, 9);
    expect(done.state.stats.matchedTrades).toBe(1);
    expect(done.state.queue).toEqual([{ level: 2, side: 'buy', cost: 0 }]);
  });

  it('counts a buy the exchange ended with a rest below the minimum notional as complete with what filled', () => {
    const s = resting();
    const buy = s.orders.find((o) => o.level === 1)!;
    // 2.595 of the buy of 2.597 at 95 fill (246.525 USDT, commission 0.002595 of the coin), then the exchange
    // expires it: its rest, 0.002 for 0.19 USDT, is below the minimum notional of 5.
    const first = applyRangeFill(s, part(buy.seq, 'buy', 95, '2.595', '246.525', '0.002595')).state;
    const ended = restEnded(first, buy.seq, TEST_RULES);
    expect(ended.intents).toEqual([]);
    expect(ended.note).toBeUndefined();
    expect(ended.state.orders.some((o) => o.level === 1)).toBe(false);
    // The rest's 0.19 USDT is free again; the part is answered by a sell at level 2 costing what it spent.
    expect(ended.state.lockedQuote).toBeCloseTo(first.lockedQuote - 0.19, 9);
    expect(ended.state.queue).toEqual([{ level: 2, side: 'sell', cost: 246.525, qty: 2.595 }]);
    // Placed for the free coin floored: 5.188806 − 2.597 − 2.591 (the sells at 105 and 110) + 2.592405 =
    // 2.593211, floored 2.593.
    const placed = stepRange(ended.state, { price: 96, timeMs: T0 }, TEST_RULES);
    expect(placed.intents).toEqual([
      { type: 'PlaceLimit', seq: ended.state.seq + 1, level: 2, side: 'sell', price: '100', qty: '2.593' },
    ]);
  });

  it('leaves the level empty and says why when even the part that filled is below the minimum notional', () => {
    // 25 USDT on 90–110 in 4 levels at 100: q = floor(25 / (90 + 95 + 100 × 2) / 0.001) × 0.001 = 0.064; the
    // start buys 0.128 at 100 (12.8 USDT, commission 0.000128); each of its two sells cost 6.4.
    let s = createRange({
      params: strategy(),
      investment: 25,
      market: 'spot',
      rules: TEST_RULES,
      startTimeMs: T0,
    });
    const start = stepRange(s, { price: 100, timeMs: T0 }, TEST_RULES);
    s = applyRangeFill(
      start.state,
      part(start.intents[0]!.seq, 'buy', 100, '0.128', '12.8', '0.000128'),
    ).state;
    s = stepRange(s, { price: 100, timeMs: T0 }, TEST_RULES).state;
    const sell = s.orders.find((o) => o.level === 3)!;
    expect(sell).toMatchObject({ side: 'sell', price: 105, qty: 0.064, cost: 6.4 });
    // 0.045 of it fill (4.725 USDT, fee 0.004725), then the exchange expires it: rest 0.019 × 105 = 1.995.
    const first = applyRangeFill(s, part(sell.seq, 'sell', 105, '0.045', '4.725', '0.004725')).state;
    const ended = restEnded(first, sell.seq, TEST_RULES);
    expect(ended.intents).toEqual([]);
    // The part closes its share of the pair: 4.725 − 0.004725 − 6.4 × 0.045 / 0.064 = 0.220275.
    expect(ended.state.stats.gridProfit).toBeCloseTo(0.220275, 9);
    expect(ended.state.stats.matchedTrades).toBe(1);
    // Its answer, a buy of 0.045 at 100 for 4.5 USDT, is below the minimum too: level 2 stays empty.
    expect(ended.note).toBe(
      "The sell at 105 ended with 0.045 of 0.064 filled; its rest is below the exchange's minimum order and " +
        'so is the buy of 0.045 at 100 that would answer it: level 2 stays empty.',
    );
    const after = stepRange(ended.state, { price: 104, timeMs: T0 }, TEST_RULES);
    expect(after.intents).toEqual([]);
    expect(after.state.orders.map((o) => o.level)).toEqual([0, 1, 4]);
    // The rest's 0.019 of the coin is free again.
    expect(after.state.lockedBase).toBeCloseTo(0.063, 9);
  });
});

/**
 * A futures grid's reduce-only orders are exempt from the minimum notional, as on the exchanges: Binance USDⓈ-M
 * -4164 "Order's notional must be no smaller than 5 (unless you choose reduce only)", Bybit linear 110094 (not
 * checked for reduce-only orders). Their small rests and answers go out instead of leaving a level empty.
 */
describe('a futures reduce-only order below the minimum notional', () => {
  const R = TEST_FUTURE_RULES;

  /** A long grid on 90–110 in 4 levels at 100, 10×, its start buy filled and its four orders resting. */
  function futuresGrid(investment: number): RangeState {
    let s = createRange({
      params: rangeStrategySchema.parse({ type: 'range', lower: 90, upper: 110, grids: 4, leverage: 10 }),
      investment,
      market: 'future',
      rules: R,
      startTimeMs: T0,
    });
    const start = stepRange(s, { price: 100, timeMs: T0 }, R);
    const buy = start.intents[0]!;
    const qty = Number((buy as { qty: string }).qty);
    s = applyRangeFill(start.state, {
      seq: buy.seq,
      side: 'buy',
      price: '100',
      qty: String(qty),
      quote: String(qty * 100),
      fee: String((qty * 100 * 0.0005).toFixed(8)),
      feeAsset: 'quote',
      timeMs: T0,
    }).state;
    return stepRange(s, { price: 100, timeMs: T0 }, R).state;
  }

  it('rests again the 0.002 left of a reduce-only sell the exchange expired (0.21 USDT, below 5)', () => {
    // q = 2.597 (range.futures.test.ts): the sell at 105 closes 2.597 of the long.
    const s = futuresGrid(100);
    const sell = s.orders.find((o) => o.level === 3)!;
    expect(sell).toMatchObject({ side: 'sell', price: 105, qty: 2.597, reduceOnly: true });
    // 2.595 fill (272.475 USDT, maker 0.02 %: 0.054495), then the exchange expires it: rest 0.002 × 105 = 0.21.
    const first = applyRangeFill(s, {
      ...part(sell.seq, 'sell', 105, '2.595', '272.475', '0.054495'),
      feeAsset: 'quote',
    }).state;
    const ended = restEnded(first, sell.seq, R);
    expect(ended.note).toBeUndefined();
    expect(ended.intents).toEqual([
      {
        type: 'PlaceLimit',
        seq: first.seq + 1,
        level: 3,
        side: 'sell',
        price: '105',
        qty: '0.002',
        reduceOnly: true,
      },
    ]);
    // Still one order at the level: the rest, under the new seq, with the booked part carried.
    expect(ended.state.orders.filter((o) => o.level === 3)).toHaveLength(1);
    expect(ended.state.orders.find((o) => o.level === 3)).toMatchObject({ seq: first.seq + 1, qty: 2.597 });
  });

  it('places the reduce-only answer of a small part at once, where an opening order that small would wait', () => {
    // 2.5 USDT at 10× on 90–110: q = floor(25 / 385 / 0.001) × 0.001 = 0.064, the start buys 0.128 at 100.
    const s = futuresGrid(2.5);
    const buy = s.orders.find((o) => o.level === 1)!;
    expect(buy).toMatchObject({ side: 'buy', price: 95, qty: 0.064 });
    // 0.04 of the buy fill (3.8 USDT, fee 0.00076), then the exchange expires it: rest 0.024 × 95 = 2.28, too
    // small for an opening buy, so the order counts as complete with what filled.
    const first = applyRangeFill(s, {
      ...part(buy.seq, 'buy', 95, '0.04', '3.8', '0.00076'),
      feeAsset: 'quote',
    }).state;
    const ended = restEnded(first, buy.seq, R);
    expect(ended.note).toBeUndefined();
    expect(ended.state.orders.some((o) => o.level === 1)).toBe(false);
    // Its answer closes the 0.04 one level up: 4 USDT at 100, below 5, yet reduce-only, so it goes out.
    const placed = stepRange(ended.state, { price: 96, timeMs: T0 }, R);
    expect(placed.intents).toEqual([
      {
        type: 'PlaceLimit',
        seq: ended.state.seq + 1,
        level: 2,
        side: 'sell',
        price: '100',
        qty: '0.04',
        reduceOnly: true,
      },
    ]);
  });
});

describe('fills the runtime learns out of path order', () => {
  it('answers a fill whose answer level still holds an order the exchange filled first, once that fill is known', () => {
    // The price falls through 95 and 90: both buys fill on the exchange, but the runtime looks up the buy at 90
    // first (it polls each order on its own). Its answer, a sell at 95, waits for the buy still resting there.
    const s = resting();
    const low = s.orders.find((o) => o.level === 0)!;
    const high = s.orders.find((o) => o.level === 1)!;
    const first = applyRangeFill(s, part(low.seq, 'buy', 90, '2.597', '233.73', '0.002597'));
    const stepped = stepRange(first.state, { price: 89, timeMs: T0 }, TEST_RULES);
    expect(stepped.intents).toEqual([]);
    expect(stepped.state.orders.map((o) => `${o.side} L${o.level}`)).toEqual([
      'buy L1',
      'sell L3',
      'sell L4',
    ]);

    const second = applyRangeFill(stepped.state, part(high.seq, 'buy', 95, '2.597', '246.715', '0.002597'));
    const placed = stepRange(second.state, { price: 89, timeMs: T0 }, TEST_RULES);
    expect(
      placed.intents.map((i) => (i.type === 'PlaceLimit' ? `${i.type} ${i.side} L${i.level}` : i.type)),
    ).toEqual(['PlaceLimit sell L1', 'PlaceLimit sell L2']);
    expect(placed.state.orders.map((o) => `${o.side} L${o.level}`)).toEqual([
      'sell L1',
      'sell L2',
      'sell L3',
      'sell L4',
    ]);
    expect(placed.state.queue).toEqual([]);
  });
});
