import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildLadder } from './ladder';
import { fractionToPct, toAllotmentFractions } from './strategy.stored';

const sum = (values: number[]) => values.reduce((s, n) => s + n, 0);

describe('allotment fractions', () => {
  it('keeps what the user typed and lets the last grid absorb the rounding', () => {
    const fractions = toAllotmentFractions([33.33, 33.33, 33.33]);
    expect(fractions.map(fractionToPct)).toEqual([33.33, 33.33, 33.34]);
    expect(Math.abs(sum(fractions) - 1)).toBeLessThan(1e-9);
  });

  it('sums to 1 within 1e-9 for any accepted table', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 50 }),
        (weights) => {
          const total = sum(weights);
          // Percent cells rounded to 4 decimals, then nudged within the 0.01 tolerance.
          const pcts = weights.map((w) => Number(((w / total) * 100).toFixed(4)));
          fc.pre(pcts.every((p) => p > 0) && Math.abs(sum(pcts) - 100) <= 0.01);
          const fractions = toAllotmentFractions(pcts);
          expect(fractions).toHaveLength(pcts.length);
          expect(fractions.every((f) => f > 0)).toBe(true);
          expect(Math.abs(sum(fractions) - 1)).toBeLessThan(1e-9);
        },
      ),
    );
  });

  it('scales every grid when the last one is too small to absorb the difference', () => {
    const fractions = toAllotmentFractions([50, 50.005, 0.005]);
    expect(fractions.every((f) => f > 0)).toBe(true);
    expect(Math.abs(sum(fractions) - 1)).toBeLessThan(1e-9);
  });
});

describe('ladder preview', () => {
  it('places multigrid buys as cumulative drops from 100 with a take-profit per grid', () => {
    const ladder = buildLadder({
      kind: 'multigrid',
      rows: [
        { allotted: '50', buy: 'marketprice', takeProfit: 2 },
        { allotted: 30, buy: '10', takeProfit: '5' },
        { allotted: 20, buy: 10, takeProfit: '' },
      ],
    });
    expect(ladder.levels.map((l) => Number(l.buyPrice.toFixed(6)))).toEqual([100, 90, 81]);
    expect(ladder.levels.map((l) => l.takeProfitPrice && Number(l.takeProfitPrice.toFixed(6)))).toEqual([
      102,
      94.5,
      null,
    ]);
    expect(ladder.levels.map((l) => l.cumulativeAllottedPct)).toEqual([50, 80, 100]);
    expect(Number(ladder.deepestDropPct.toFixed(6))).toBe(19);
  });

  it('puts the scalping take-profit on the average entry of the open grids', () => {
    const ladder = buildLadder({
      kind: 'scalping',
      takeProfit: 3,
      rows: [
        { allotted: 50, buy: 'marketprice' },
        { allotted: 50, buy: 20 },
      ],
    });
    // 50 at 100 and 50 at 80: average entry = 100 / (0.5 + 0.625) = 88.888…
    expect(ladder.levels[1]?.takeProfitPrice).toBeCloseTo((100 / (0.5 + 0.625)) * 1.03, 9);
    expect(ladder.levels[0]?.takeProfitPrice).toBeCloseTo(103, 9);
  });

  it('treats half-typed cells as no drop and flags them', () => {
    const ladder = buildLadder({
      kind: 'multigrid',
      rows: [{ allotted: '' }, { allotted: 'x', buy: '1.' }, { buy: '-' }],
    });
    expect(ladder.levels.map((l) => l.buyValid)).toEqual([true, true, false]);
    expect(ladder.levels.map((l) => Number(l.buyPrice.toFixed(6)))).toEqual([100, 99, 99]);
    expect(ladder.totalAllottedPct).toBe(0);
  });
});
