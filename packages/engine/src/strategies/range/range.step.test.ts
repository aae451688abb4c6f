/**
 * The range grid of docs/trading-rules.md §2.6, worked by hand on small candle sets (spot, 0.1 % fees, tick
 * 0.01, step 0.001). Grid 90–110 in 4 arithmetic levels: 90, 95, 100, 105, 110; 1000 USDT at 100 gives
 * q = floor(1000 / (90 + 95 + 2 × 100) / 0.001) × 0.001 = 2.597.
 */
import { emptyCandles, type RangeStrategy, rangeStrategySchema } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import type { Candles } from '../../backtest/candles';
import { type RangeFillRecord, runRangeBacktest } from '../../backtest/range-backtest';
import { TEST_RULES } from '../../testing/harness';
import { createRange, isOutOfRange, type RangeState } from './range.state';
import { stepRange } from './range.step';
import { levelPrice, levelSpec, rangeStartProblems } from './range-levels';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;

/** Candles from rows of [open, high, low, close], one minute apart from T0. */
export function candles(rows: readonly (readonly [number, number, number, number])[]): Candles {
  const n = rows.length;
  const c: Candles = emptyCandles(n);
  rows.forEach(([o, h, l, cl], i) => {
    c.openTimeMs[i] = T0 + i * MIN;
    c.open[i] = o;
    c.high[i] = h;
    c.low[i] = l;
    c.close[i] = cl;
  });
  return c;
}

export function strategy(over: Partial<Record<keyof RangeStrategy, unknown>> = {}): RangeStrategy {
  return rangeStrategySchema.parse({ type: 'range', lower: 90, upper: 110, grids: 4, ...over });
}

function grid(over: Partial<Record<keyof RangeStrategy, unknown>> = {}): RangeState {
  return createRange({
    params: strategy(over),
    investment: 1000,
    market: 'spot',
    rules: TEST_RULES,
    startTimeMs: T0,
  });
}

const run = (s: RangeState, rows: Parameters<typeof candles>[0]) =>
  runRangeBacktest(s, candles(rows), TEST_RULES);
const brief = (f: RangeFillRecord) =>
  `${f.side} L${f.level ?? 'mkt'} ${f.qty}@${f.price} t${(f.time - T0) / MIN}`;
const book = (s: RangeState) => s.orders.map((o) => `${o.side} L${o.level} ${o.qty}@${o.price}`);

describe('range grid levels and start checks (§2.6)', () => {
  it('geometric levels are lower × ratio^i rounded to the nearest tick', () => {
    const spec = levelSpec(strategy({ lower: 100, upper: 200, mode: 'geometric' }), '0.01');
    // 2^(1/4) = 1.18920711…: 118.920711, 141.421356, 168.179283.
    expect([0, 1, 2, 3, 4].map((k) => levelPrice(spec, k))).toEqual([100, 118.92, 141.42, 168.18, 200]);
  });

  it('arithmetic levels are lower + i × (upper − lower) / N on the tick', () => {
    const spec = levelSpec(strategy({ lower: 100, upper: 101, grids: 3 }), '0.01');
    // Δ = 0.3333…: 100.3333 → 100.33, 100.6667 → 100.67.
    expect([0, 1, 2, 3].map((k) => levelPrice(spec, k))).toEqual([100, 100.33, 100.67, 101]);
  });

  it('refuses spacing that does not cover twice the fee, naming the minimum spacing', () => {
    // Δ = 0.1 on 100: 0.1 %, below 2 × 0.1 %.
    const problems = rangeStartProblems(
      strategy({ lower: 100, upper: 101, grids: 10 }),
      1000,
      100.5,
      TEST_RULES,
      'spot',
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('the minimum spacing is 0.2%');
    // The narrowest gap relative to its price is the top one, 100.9 → 101.
    expect(problems[0]).toContain('between 100.9 and 101');
    expect(problems[0]).toContain('0.2018 USDT at 100.9');
  });

  it('accepts the worked grid and refuses a quantity below the step or the minimum order', () => {
    expect(rangeStartProblems(strategy(), 1000, 100, TEST_RULES, 'spot')).toEqual([]);
    // 0.3 / 385 = 0.00078 < 0.001.
    expect(rangeStartProblems(strategy(), 0.3, 100, TEST_RULES, 'spot')[0]).toContain(
      'below the step of 0.001',
    );
    // 10 / 385 → q = 0.025; 0.025 × 90 = 2.25 USDT < 5.
    expect(rangeStartProblems(strategy(), 10, 100, TEST_RULES, 'spot')[0]).toContain(
      'below the minimum order of 5 USDT',
    );
  });
});

describe('range grid on the path (§2.6), hand-worked', () => {
  it('start split: the level nearest the price empty, buys below, sells above, the coin bought at market', () => {
    const r = run(grid(), [[100, 100, 100, 100]]);
    // 2 sells × 2.597 = 5.194 bought at 100; commission 0.005194 in the coin → 5.188806 held.
    expect(r.fills.map(brief)).toEqual(['buy Lmkt 5.194@100 t0']);
    expect(r.fills[0]?.fee).toBeCloseTo(0.5194, 10);
    expect(r.state.base).toBe(5.188806);
    expect(r.state.quote).toBe(480.6);
    // Sells from the nearest level up: 105 gets q, 110 what is left floor-stepped (5.188806 − 2.597 → 2.591).
    expect(book(r.state)).toEqual([
      'buy L0 2.597@90',
      'buy L1 2.597@95',
      'sell L3 2.597@105',
      'sell L4 2.591@110',
    ]);
  });

  it('a filled buy is answered by a sell one level up; the sell closes the pair with its grid profit', () => {
    const r = run(grid(), [
      [100, 100, 100, 100],
      [100, 100, 94, 99], // path 100, 100, 94, 99: the buy at 95 fills
      [99, 101, 99, 101], // 99 → 101: the sell at 100 fills
    ]);
    expect(r.fills.map(brief)).toEqual([
      'buy Lmkt 5.194@100 t0',
      'buy L1 2.597@95 t1',
      // Free coin 7.783209 − 5.188 locked = 2.595209: the sell is for 2.595 (the commission's remainder carried).
      'sell L2 2.595@100 t2',
    ]);
    const sell = r.fills[2] as RangeFillRecord;
    // 259.5 − 0.2595 fee − 246.715 the buy's quote.
    expect(sell.pnl).toBeCloseTo(12.5255, 10);
    expect(r.summary.gridProfit).toBeCloseTo(12.5255, 10);
    expect(r.summary.matchedTrades).toBe(1);
    // The answer to the sell: a buy at 95 again.
    expect(book(r.state)).toContain('buy L1 2.597@95');
    expect(r.summary.totalPnl).toBeCloseTo(r.summary.gridProfit + r.summary.floatingPnl, 9);
  });

  it('a line across several levels fills each at its own price in path order; orders it places behind it wait', () => {
    const r = run(grid(), [
      [100, 100, 100, 100],
      [100, 100, 89, 89], // 100 → 89: 95 then 90; the sells they place at 100 and 95 are above the line
      [89, 101, 89, 101], // 89 → 101: 95 then 100; the buys they place at 90 and 95 are below it
    ]);
    expect(r.fills.map(brief)).toEqual([
      'buy Lmkt 5.194@100 t0',
      'buy L1 2.597@95 t1',
      'buy L0 2.597@90 t1',
      // Free coin after the buy at 95: 7.783209 − 5.188 = 2.595209 → the sell at 100 is for 2.595; after the
      // buy at 90: 10.377612 − 5.188 − 2.595 = 2.594612 → the sell at 95 is for 2.594.
      'sell L1 2.594@95 t2',
      'sell L2 2.595@100 t2',
    ]);
    expect(r.fills.map((f) => f.pnl)).toEqual([0, 0, 0, 12.45357, 12.5255]);
    expect(book(r.state)).toEqual([
      'buy L0 2.597@90',
      'buy L1 2.597@95',
      'sell L3 2.597@105',
      'sell L4 2.591@110',
    ]);
  });

  it('an order placed by a fill is not filled by the part of the line already passed', () => {
    // The buy at 95 fills on 100 → 94 and places a sell at 100: the line started at 100, never reaches it again.
    const r = run(grid(), [
      [100, 100, 100, 100],
      [100, 100, 94, 94],
    ]);
    expect(r.fills.map(brief)).toEqual(['buy Lmkt 5.194@100 t0', 'buy L1 2.597@95 t1']);
    expect(book(r.state)).toContain('sell L2 2.595@100');
  });

  it('price outside the range without trailing: nothing fills, the bot is live and out of range', () => {
    const r = run(grid(), [
      [100, 120, 100, 120],
      [120, 130, 115, 125],
    ]);
    expect(r.fills.map(brief)).toEqual([
      'buy Lmkt 5.194@100 t0',
      'sell L3 2.597@105 t0',
      'sell L4 2.591@110 t0',
    ]);
    expect(r.state.status).toBe('Live');
    expect(isOutOfRange(r.state, 125)).toBe(true);
    expect(isOutOfRange(r.state, 100)).toBe(false);
  });

  it('trailing up: one spacing above the top the lowest buy is cancelled, q bought at market, a sell at the new top', () => {
    const r = run(grid({ trailingUp: true }), [
      [100, 100, 100, 100],
      [100, 115, 100, 115], // 105 and 110 sell; at 115 the grid moves up one level
    ]);
    expect(r.fills.map(brief)).toEqual([
      'buy Lmkt 5.194@100 t0',
      'sell L3 2.597@105 t1',
      'sell L4 2.591@110 t1',
      // The free USDT (1037.737305 held − 779.1 locked in the buys at 95, 100, 105 = 258.637305) buys
      // 2.248 at up to 115.01, less than q.
      'buy Lmkt 2.248@115 t1',
    ]);
    expect(r.state.offset).toBe(1);
    // The buy at 90 is gone; the new top level 115 holds the sell of what the coin held floor-stepped
    // (0.000806 left + 2.248 − 0.002248 commission = 2.246558).
    expect(book(r.state)).toEqual([
      'buy L1 2.597@95',
      'buy L2 2.597@100',
      'buy L3 2.597@105',
      'sell L5 2.246@115',
    ]);
    expect(r.state.orders.at(-1)?.cost).toBe(258.52);
    expect(r.state.trailUpAt).toBe(120);
  });

  it('after trailing up, the answer of the smaller top sell buys what the free USDT pays instead of leaving its level empty', () => {
    const r = run(grid({ trailingUp: true }), [
      [100, 100, 100, 100],
      [100, 115, 100, 115], // as above: the grid trails to 95–115, a sell of 2.246 rests at 115
      [115, 115, 113, 113],
      [113, 118, 113, 118], // the sell at 115 fills on the way up
    ]);
    expect(r.fills.slice(3).map(brief)).toEqual(['buy Lmkt 2.248@115 t1', 'sell L5 2.246@115 t3']);
    // Free USDT: 258.637305 − 258.52 (the trailing buy) + 258.29 − 0.25829 (the sell and its fee) = 258.149015,
    // short of q × 110 = 285.67: the buy at 110 goes out for floor(258.149015 / 110 / 0.001) × 0.001 = 2.346.
    expect(book(r.state)).toEqual([
      'buy L1 2.597@95',
      'buy L2 2.597@100',
      'buy L3 2.597@105',
      'buy L4 2.346@110',
    ]);
    expect(r.state.quote - r.state.lockedQuote).toBeCloseTo(258.149015 - 258.06, 9);
  });

  it('trailing up stops at its limit', () => {
    const r = run(grid({ trailingUp: true, trailingUpLimit: 112 }), [
      [100, 100, 100, 100],
      [100, 116, 100, 116],
    ]);
    expect(r.state.offset).toBe(0);
    expect(r.fills.filter((f) => f.level === null)).toHaveLength(1);
  });

  it('a start whose quantity per order at the start price is below the step or the minimum order keeps waiting and says why, sending nothing', () => {
    const at = (investment: number, price: number) =>
      stepRange(
        createRange({ params: strategy(), investment, market: 'spot', rules: TEST_RULES, startTimeMs: T0 }),
        { price, timeMs: T0 },
        TEST_RULES,
      );
    // 0.3 / 385 = 0.00078: below the step of 0.001, where the engine would buy 0 at market.
    const belowStep = at(0.3, 100);
    expect(belowStep.intents).toEqual([]);
    expect(belowStep.state.status).toBe('Waiting');
    expect(belowStep.refused).toContain('below the step of 0.001');
    // 10 / 385 → q = 0.025; 0.025 × 90 = 2.25 USDT, below the minimum order of 5.
    const belowMinimum = at(10, 100);
    expect(belowMinimum.intents).toEqual([]);
    expect(belowMinimum.refused).toContain('below the minimum order of 5 USDT');
    // 1000 USDT starts as the worked grid above.
    const started = at(1000, 100);
    expect(started.refused).toBeUndefined();
    expect(started.state.qty).toBe(2.597);
  });

  it('a backtest whose start is refused ends there with the reason a live bot is halted with, and trades nothing', () => {
    // 10 USDT: q = 0.025 at 100, 0.025 × 90 = 2.25 USDT, below the minimum order of 5.
    const s = createRange({
      params: strategy(),
      investment: 10,
      market: 'spot',
      rules: TEST_RULES,
      startTimeMs: T0,
    });
    const r = run(s, [
      [100, 101, 99, 100],
      [100, 120, 80, 100],
    ]);
    expect(r.fills).toEqual([]);
    expect(r.state.status).toBe('Waiting');
    expect(r.summary.trades).toBe(0);
    expect(r.summary.halted).toMatch(/^The grid cannot start at 100: .*below the minimum order of 5 USDT/);
    // A grid that starts says nothing of the kind.
    expect(run(grid(), [[100, 101, 99, 100]]).summary.halted).toBeUndefined();
  });

  it('trigger: the grid starts where the price first crosses it, split at that price', () => {
    const r = run(grid({ trigger: 95 }), [
      [100, 100, 100, 100],
      [100, 100, 94, 94],
    ]);
    // At 95 the nearest level is 95 (level 1): buy at 90, sells at 100, 105, 110 → q = 1000 / (90 + 3 × 95) = 2.666.
    expect(r.fills.map(brief)).toEqual(['buy Lmkt 7.998@95 t1']);
    expect(r.state.stats.startPrice).toBe(95);
    expect(book(r.state).map((o) => o.split(' ').slice(0, 2).join(' '))).toEqual([
      'buy L0',
      'sell L2',
      'sell L3',
      'sell L4',
    ]);
  });

  it('stop-loss with sell: every order cancelled, the coin sold at market, stopped', () => {
    const r = run(grid({ stopLoss: 85 }), [
      [100, 100, 100, 100],
      [100, 100, 80, 80],
    ]);
    expect(r.fills.map(brief)).toEqual([
      'buy Lmkt 5.194@100 t0',
      'buy L1 2.597@95 t1',
      'buy L0 2.597@90 t1',
      // 5.188806 + 2 × 2.594403 = 10.377612 held: 10.377 sold at 85, 0.000612 left as dust.
      'sell Lmkt 10.377@85 t1',
    ]);
    expect(r.state.status).toBe('Stopped');
    expect(r.state.stopReason).toBe('stoploss');
    expect(r.state.orders).toEqual([]);
    expect(r.state.base).toBeCloseTo(0.000612, 12);
    expect(r.summary.stopReason).toBe('stoploss');
  });

  it('stop-loss without sell: orders cancelled, the coin kept', () => {
    const r = run(grid({ stopLoss: 85, sellOnStop: false }), [
      [100, 100, 100, 100],
      [100, 100, 80, 80],
    ]);
    expect(r.fills.map(brief).at(-1)).toBe('buy L0 2.597@90 t1');
    expect(r.state.status).toBe('Stopped');
    expect(r.state.orders).toEqual([]);
    expect(r.state.base).toBeCloseTo(10.377612, 12);
  });

  it('take-profit stops the whole grid; coin below one step is left as dust, not sold', () => {
    const r = run(grid({ takeProfit: 112 }), [
      [100, 100, 100, 100],
      [100, 113, 100, 113],
    ]);
    // Above the range every sell has filled: 5.188806 − 5.188 = 0.000806 is left, below the step.
    expect(r.fills.map(brief)).toEqual([
      'buy Lmkt 5.194@100 t0',
      'sell L3 2.597@105 t1',
      'sell L4 2.591@110 t1',
    ]);
    expect(r.state.stopReason).toBe('take_profit');
    expect(r.state.orders).toEqual([]);
    expect(r.state.base).toBe(0.000806);
  });
});
