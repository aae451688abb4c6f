/**
 * Where an event fills (docs/trading-rules.md §2.5): at the level the rule crossed, rounded to the tick against
 * the bot (a buy up, a sell down), never at the first tick beyond the level, which is one tick in the bot's
 * favour. Hand-worked on tick 0.01.
 */
import { describe, expect, it } from 'vitest';
import { createCycle } from '../strategies/cycle/cycle.state';
import { TEST_RULES } from '../testing/harness';
import { multigridBot } from '../testing/strategies';
import type { Candles } from './candles';
import { type FillRecord, runBacktest } from './run-backtest';

function candles(rows: readonly [number, number, number, number][]): Candles {
  return {
    openTimeMs: Float64Array.from(rows.map((_, i) => i * 60_000)),
    open: Float64Array.from(rows.map((r) => r[0])),
    high: Float64Array.from(rows.map((r) => r[1])),
    low: Float64Array.from(rows.map((r) => r[2])),
    close: Float64Array.from(rows.map((r) => r[3])),
  };
}

const brief = (f: FillRecord) => `${f.side} g${f.grid} @${f.price}`;
const OPTS = { feePct: 0.1 };

describe('a fill at the level, against the bot', () => {
  it('buys a grid level of 3295.4537 at 3295.46, not at the tick beyond (3295.45)', () => {
    // Grid 1 at 3386.9; grid 2 at 2.7 % below: 3386.9 × 0.973 = 3295.4537.
    const bot = multigridBot({ alloc: [0.5, 0.5], buy: [2.7], tp: [50, 50] });
    const r = runBacktest(
      bot,
      candles([
        [3386.9, 3386.9, 3386.9, 3386.9],
        [3386.9, 3386.9, 3290, 3290],
      ]),
      TEST_RULES,
      OPTS,
    );
    expect(r.fills.map(brief)).toEqual(['buy g1 @3386.9', 'buy g2 @3295.46']);
  });

  it('sells a take-profit level of 3454.638 at 3454.63, not at 3454.64', () => {
    // 3386.9 × 1.02 = 3454.638; grid 1 then buys again at market, at the level rounded up.
    const bot = multigridBot({ alloc: [1], tp: [2] });
    const r = runBacktest(
      bot,
      candles([
        [3386.9, 3386.9, 3386.9, 3386.9],
        [3386.9, 3460, 3386.9, 3460],
      ]),
      TEST_RULES,
      OPTS,
    );
    expect(r.fills.map(brief)).toEqual(['buy g1 @3386.9', 'sell g1 @3454.63', 'buy g1 @3454.64']);
  });

  it('fills a cycle at its buy and sell prices rounded against it', () => {
    const cycle = createCycle({
      params: { buyPrice: 3295.4537, sellPrice: 3454.638, stopLoss: null, cycles: 1, amount: 1000 },
      market: 'spot',
      startTimeMs: 0,
    });
    const r = runBacktest(
      cycle,
      candles([
        [3300, 3300, 3290, 3290],
        [3290, 3460, 3290, 3460],
      ]),
      TEST_RULES,
      OPTS,
    );
    expect(r.fills.map(brief)).toEqual(['buy g1 @3295.46', 'sell g1 @3454.63']);
  });
});
