/**
 * The start form's "Suggest" (docs/trading-rules.md §2.6): worked by hand on tick 0.01, and a property over random
 * price histories: whatever it suggests, the start's own checks accept.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEST_FUTURE_RULES, TEST_RULES } from '../../testing/harness';
import { rangeStartProblems } from './range-levels';
import { suggestRange } from './range-suggest';

// Eleven closes: the 2nd and the 10th sorted (⌊0.1 × 10⌋ = 1, ⌈0.9 × 10⌉ = 9) are 100 and 200.
const CLOSES = [150, 40, 200, 110, 260, 120, 100, 130, 160, 170, 180];

describe('suggestRange', () => {
  it('spot, arithmetic: 100–200 holding 9 of 11 closes, 100 grids of 1 (1 / 199 = 0.5025 % ≥ 0.5 %)', () => {
    // 101 grids: 0.990099… apart, on the tick 0.99 at the top: 0.99 / 199.01 = 0.4975 % < 2 × 0.1 % × 2.5.
    const s = suggestRange({ closes: CLOSES, mode: 'arithmetic', market: 'spot', rules: TEST_RULES });
    expect(s).toEqual({
      ok: true,
      lower: 100,
      upper: 200,
      grids: 100,
      heldPct: 81.82,
      minSpacingPct: 0.5025,
    });
  });

  it('spot, geometric: 137 grids, since on the tick 138 would leave one gap below 0.5 %', () => {
    // ln 2 / ln 1.005 = 138.98, but 138 grids put 110.57 and 111.12 side by side: 0.55 / 110.57 = 0.4974 %.
    // 137 grids: the narrowest pair is 147.64 and 148.38, 0.74 / 147.64 = 0.5012 %.
    const s = suggestRange({ closes: CLOSES, mode: 'geometric', market: 'spot', rules: TEST_RULES });
    expect(s).toEqual({
      ok: true,
      lower: 100,
      upper: 200,
      grids: 137,
      heldPct: 81.82,
      minSpacingPct: 0.5012,
    });
  });

  it('futures: a fifth of the fee lets the count reach its cap of 200', () => {
    // 100 / 200 = 0.5 apart: 0.5 / 199.5 = 0.2506 % ≥ 2 × 0.02 % × 2.5 = 0.1 %.
    const s = suggestRange({
      closes: CLOSES,
      mode: 'arithmetic',
      market: 'future',
      rules: TEST_FUTURE_RULES,
    });
    expect(s).toMatchObject({ ok: true, lower: 100, upper: 200, grids: 200, minSpacingPct: 0.2506 });
  });

  it('with the investment: fewer grids until an order reaches the minimum of 5 USDT at the lowest level', () => {
    // 100 USDT at 150. 14 grids (100, 107.14, …, 142.86 below 150, Σ 850; 7 sells × 150 = 1,050): 100 / 1,900
    // = 0.0526 → 0.052, 5.2 USDT at 100. 15 grids (Σ of the 7 buys below 146.67 = 840; 8 sells × 150 = 1,200):
    // 100 / 2,040 = 0.049, 4.9 USDT: refused.
    const s = suggestRange({
      closes: CLOSES,
      mode: 'arithmetic',
      market: 'spot',
      rules: TEST_RULES,
      funds: { amount: 100, price: 150 },
    });
    expect(s).toMatchObject({ ok: true, lower: 100, upper: 200, grids: 14 });
  });

  it('moves the band with the live price where it stands apart from the last close', () => {
    // The market now trades at half the last close (90 against 180): 100–200 becomes 50–100; the closes move
    // with it, so 9 of 11 are still held; 100 grids of 0.5 (0.5 / 99.5 = 0.5025 %), as the unmoved band's 100.
    const s = suggestRange({
      closes: CLOSES,
      mode: 'arithmetic',
      market: 'spot',
      rules: TEST_RULES,
      anchor: { price: 90, lastClose: 180 },
    });
    expect(s).toEqual({ ok: true, lower: 50, upper: 100, grids: 100, heldPct: 81.82, minSpacingPct: 0.5025 });
  });

  it('stretches a band that leaves the price out to one target spacing beyond it', () => {
    // The period ended at its high, 260, outside the central 100–200: the top moves to 260 × 1.005 = 261.3, so
    // the grid starts with sells above the price; 10 of the 11 closes (all but 40) lie within 100–261.3.
    const s = suggestRange({
      closes: CLOSES,
      mode: 'arithmetic',
      market: 'spot',
      rules: TEST_RULES,
      anchor: { price: 260, lastClose: 260 },
    });
    if (!s.ok) throw new Error(s.message);
    expect([s.lower, s.upper, s.heldPct]).toEqual([100, 261.3, 90.91]);
    expect(s.minSpacingPct).toBeGreaterThanOrEqual(0.5);
    const strategy = {
      type: 'range',
      lower: s.lower,
      upper: s.upper,
      grids: s.grids,
      mode: 'arithmetic',
    } as const;
    expect(
      rangeStartProblems(
        {
          ...strategy,
          sellOnStop: true,
          trailingUp: false,
          trailingDown: false,
          direction: 'long',
          leverage: 1,
        },
        10_000,
        260,
        TEST_RULES,
        'spot',
      ),
    ).toEqual([]);
  });

  it('a flat period has no range; a band too narrow for two grids says so', () => {
    expect(
      suggestRange({ closes: [100, 100, 100, 100], mode: 'arithmetic', market: 'spot', rules: TEST_RULES }),
    ).toEqual({
      ok: false,
      message: 'the price held at 100 for most of the period: there is no range to trade',
    });
    // 100–100.5: two grids 0.25 apart, 0.25 / 100.25 = 0.249 % < 0.5 %.
    expect(
      suggestRange({ closes: [100, 100.5, 100.2], mode: 'arithmetic', market: 'spot', rules: TEST_RULES }),
    ).toEqual({
      ok: false,
      message:
        'the price held between 100 and 100.5: too narrow for two grids to clear 0.5% per level after fees',
    });
    expect(suggestRange({ closes: [100], mode: 'arithmetic', market: 'spot', rules: TEST_RULES })).toEqual({
      ok: false,
      message: 'not enough candles in the period to suggest a range',
    });
  });

  it('property: a suggestion holds at least 80 % of the closes and the start accepts its spacing', () => {
    const walk = fc.array(fc.double({ min: -0.03, max: 0.03, noNaN: true }), {
      minLength: 2,
      maxLength: 300,
    });
    fc.assert(
      fc.property(walk, fc.constantFrom('arithmetic' as const, 'geometric' as const), (moves, mode) => {
        let p = 100;
        const closes = moves.map((m) => {
          p = Math.round(p * (1 + m) * 100) / 100;
          return p;
        });
        const s = suggestRange({ closes, mode, market: 'spot', rules: TEST_RULES });
        if (!s.ok) return;
        expect(s.lower).toBeLessThan(s.upper);
        expect(s.heldPct).toBeGreaterThanOrEqual(80);
        expect(s.grids).toBeGreaterThanOrEqual(2);
        expect(s.grids).toBeLessThanOrEqual(200);
        expect(s.minSpacingPct).toBeGreaterThanOrEqual(0.5);
        // With funds far beyond any minimum, the start's own checks refuse nothing.
        expect(
          rangeStartProblems(
            { ...base, mode, lower: s.lower, upper: s.upper, grids: s.grids },
            1e9,
            closes[closes.length - 1] as number,
            TEST_RULES,
            'spot',
          ),
        ).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

const base = {
  type: 'range' as const,
  mode: 'arithmetic' as const,
  sellOnStop: true,
  trailingUp: false,
  trailingDown: false,
  direction: 'long' as const,
  leverage: 1,
};
