/**
 * Spot grid orders that never reached the exchange (docs/trading-rules.md §2.6 "Live"). Grid 90–110 in 4
 * levels, 1000 USDT at 100: q = 2.597 (see range.step.test.ts); the start buys 5.194 at 100 (commission
 * 0.005194 of the coin), sells 2.597 at 105 and the rest, 2.591806 floored to 2.591, at 110.
 */
import { rangeStrategySchema } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { TEST_FUTURE_RULES, TEST_RULES } from '../../testing/harness';
import type { Fill } from '../../types';
import { applyRangeFill } from './range.fill';
import { misplacedOrders, relayLost } from './range.lost';
import { createRange, type RangeState } from './range.state';
import { stepRange } from './range.step';

const T0 = Date.UTC(2024, 0, 1);
const tick = { price: 100, timeMs: T0 };

const fill = (seq: number, side: 'buy' | 'sell', price: number, qty: string, quote: string, fee: string) =>
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

/** The grid after its sell at 105 filled: the answering buy at 100 is in its book, not yet on the exchange. */
function missingBuy(): RangeState {
  let s = createRange({
    params: rangeStrategySchema.parse({ type: 'range', lower: 90, upper: 110, grids: 4 }),
    investment: 1000,
    market: 'spot',
    rules: TEST_RULES,
    startTimeMs: T0,
  });
  const start = stepRange(s, tick, TEST_RULES);
  s = applyRangeFill(
    start.state,
    fill(start.intents[0]!.seq, 'buy', 100, '5.194', '519.4', '0.005194'),
  ).state;
  s = stepRange(s, tick, TEST_RULES).state;
  const sell = s.orders.find((o) => o.level === 3)!;
  s = applyRangeFill(s, fill(sell.seq, 'sell', 105, '2.597', '272.685', '0.272685')).state;
  return stepRange(s, tick, TEST_RULES).state;
}

/**
 * The grid laid out again after the buy at 95 filled: buys at 90 and 95, the level of 100 empty, sells at 105
 * and 110; the sell at 105 holds the free coin floor-stepped: 5.188806 − 2.597 + 2.594403 − 2.591 = 2.595209.
 */
const LAID_OUT = ['buy L0 2.597@90', 'buy L1 2.597@95', 'sell L3 2.595@105', 'sell L4 2.591@110'];

const book = (s: RangeState) => s.orders.map((o) => `${o.side} L${o.level} ${o.qty}@${o.price}`);

describe('a range grid order that never reached the exchange', () => {
  it('is sent again under its own seq when nothing filled beyond it', () => {
    const s = missingBuy();
    const lost = s.orders.find((o) => o.level === 2)!;
    const out = relayLost(s, [lost], 0.001);
    expect(out.again).toEqual([lost]);
    expect(out.dropped).toEqual([]);
    expect(out.state.queue).toEqual([]);
    expect(out.state.lockedQuote).toBe(s.lockedQuote);
    expect(book(out.state)).toEqual(book(s));
  });

  it('gives its level up when the buy below it filled, and lays the grid out by its coin', () => {
    let s = missingBuy();
    const lost = s.orders.find((o) => o.level === 2)!;
    const below = s.orders.find((o) => o.level === 1)!;
    // The buy at 95 fills: 2.597 for 246.715 USDT, 0.002597 of the coin as commission.
    s = applyRangeFill(s, fill(below.seq, 'buy', 95, '2.597', '246.715', '0.002597')).state;
    const out = relayLost(s, [lost], 0.001);
    expect(out.dropped).toEqual([lost]);
    // Two sells' worth of coin (the sell resting at 110 and the one due for the buy at 95): sells at 105 and
    // 110, the level of 100 empty, buys at 90 and 95; the sell at 105 costs what the buy at 95 paid.
    expect(out.state.queue).toEqual([
      { level: 1, side: 'buy', cost: 0 },
      { level: 3, side: 'sell', cost: 246.715 },
    ]);
    const placed = stepRange(out.state, tick, TEST_RULES).state;
    expect(book(placed)).toEqual(LAID_OUT);
  });

  it('moves a resting buy off the level the coin leaves empty when an answer waits for it', () => {
    let s = missingBuy();
    const below = s.orders.find((o) => o.level === 1)!;
    s = applyRangeFill(s, fill(below.seq, 'buy', 95, '2.597', '246.715', '0.002597')).state;
    // The buy at 100 rested after all: the answer to the buy at 95, a sell at 100, finds its level taken and
    // waits in the queue.
    s = stepRange(s, tick, TEST_RULES).state;
    expect(s.queue).toEqual([{ level: 2, side: 'sell', cost: 246.715 }]);
    expect(book(s)).toEqual(['buy L0 2.597@90', 'buy L2 2.597@100', 'sell L4 2.591@110']);
    // Two sells' worth of coin (2.591 resting, 2.595209 free): the level of 100 is the empty one.
    const wrong = misplacedOrders(s, []);
    expect(wrong.map((o) => o.level)).toEqual([2]);
    const out = relayLost(s, [], 0.001, wrong);
    expect(out.dropped).toEqual([]);
    // The waiting answer moves up with the coin: the sell at 105 costs what the buy at 95 paid.
    expect(out.state.queue).toEqual([
      { level: 1, side: 'buy', cost: 0 },
      { level: 3, side: 'sell', cost: 246.715 },
    ]);
    const placed = stepRange(out.state, tick, TEST_RULES).state;
    expect(book(placed)).toEqual(LAID_OUT);
  });

  /** A futures grid on 90–110 in 4 levels at 100, 1000 USDT at 1×, its start filled and its orders resting. */
  function futuresGrid(direction: 'short' | 'neutral', startFill?: string): RangeState {
    let s = createRange({
      params: rangeStrategySchema.parse({
        type: 'range',
        lower: 90,
        upper: 110,
        grids: 4,
        direction,
        leverage: 1,
      }),
      investment: 1000,
      market: 'future',
      rules: TEST_FUTURE_RULES,
      startTimeMs: T0,
    });
    const start = stepRange(s, tick, TEST_FUTURE_RULES);
    s = start.state;
    if (startFill !== undefined) {
      const quote = String(Number(startFill) * 100);
      s = applyRangeFill(s, {
        ...fill(start.intents[0]!.seq, 'sell', 100, startFill, quote, '0'),
        feeAsset: 'quote',
      }).state;
      s = stepRange(s, tick, TEST_FUTURE_RULES).state;
    }
    return s;
  }
  const futuresFill = (s: RangeState, level: number, qty: string) => {
    const o = s.orders.find((r) => r.level === level)!;
    return applyRangeFill(s, {
      ...fill(o.seq, o.side, o.price, qty, String(Number(qty) * o.price), '0'),
      feeAsset: 'quote',
    }).state;
  };
  const futuresBook = (s: RangeState) =>
    s.orders.map((o) => `${o.side} L${o.level}${o.reduceOnly ? ' ro' : ''}`);

  it('lays a short futures grid out from its position, reduce-only buys closing it from the bottom up', () => {
    // q = floor(1000 / (100 × 2 + 105 + 110) / 0.001) × 0.001 = 2.409: the start sells 4.818 at 100, buys at 90
    // and 95 close it, sells at 105 and 110 add to it.
    let s = futuresGrid('short', '4.818');
    expect(futuresBook(s)).toEqual(['buy L0 ro', 'buy L1 ro', 'sell L3', 'sell L4']);
    // The buy at 95 closes 2.409 and its answer, an opening sell at 100, is written and never sent; the sell
    // at 105 then fills on the exchange: the short is 4.818 again, its answer a reduce-only buy at 100.
    s = stepRange(futuresFill(s, 1, '2.409'), tick, TEST_FUTURE_RULES).state;
    const lost = s.orders.find((o) => o.level === 2)!;
    expect(lost).toMatchObject({ side: 'sell', reduceOnly: false });
    s = futuresFill(s, 3, '2.409');
    expect(s.futures?.pos).toBe(-4.818);
    // Two reduce-only buys' worth: at 90 (resting) and 95, the level above them (100) empty, sells at 105 and
    // 110 opening. The missing sell is given up; the buy at 95 costs what the sell at 105 brought in.
    const relaid = relayLost(s, [lost], 0.001);
    expect(relaid.dropped).toEqual([lost]);
    expect(relaid.state.queue).toEqual([
      { level: 1, side: 'buy', cost: 252.945, reduceOnly: true },
      { level: 3, side: 'sell', cost: 0, reduceOnly: false },
    ]);
    const placed = stepRange(relaid.state, { price: 101, timeMs: T0 }, TEST_FUTURE_RULES).state;
    expect(futuresBook(placed)).toEqual(['buy L0 ro', 'buy L1 ro', 'sell L3', 'sell L4']);
  });

  it('lays a neutral futures grid out from its position around the level its start left empty', () => {
    // q = floor(1000 / (90 + 95 + 105 + 110) / 0.001) × 0.001 = 2.5; nothing opens at the start, the level of
    // 100 stays empty.
    let s = stepRange(futuresGrid('neutral'), tick, TEST_FUTURE_RULES).state;
    expect(futuresBook(s)).toEqual(['buy L0', 'buy L1', 'sell L3', 'sell L4']);
    // The sell at 105 opens a short of 2.5; its answer, a reduce-only buy at 100, is written and never sent.
    // The buy at 95 then fills on the exchange: the position is flat again.
    s = stepRange(futuresFill(s, 3, '2.5'), tick, TEST_FUTURE_RULES).state;
    const lost = s.orders.find((o) => o.level === 2)!;
    expect(lost).toMatchObject({ side: 'buy', reduceOnly: true });
    s = futuresFill(s, 1, '2.5');
    expect(s.futures?.pos).toBe(0);
    // Flat: the start's layout, the level of 100 empty, nothing reduce-only.
    const relaid = relayLost(s, [lost], 0.001);
    expect(relaid.dropped).toEqual([lost]);
    const placed = stepRange(relaid.state, { price: 101, timeMs: T0 }, TEST_FUTURE_RULES).state;
    expect(futuresBook(placed)).toEqual(['buy L0', 'buy L1', 'sell L3', 'sell L4']);
  });
});
