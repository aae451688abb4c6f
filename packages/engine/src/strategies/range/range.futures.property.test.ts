/**
 * Properties of the futures range grid (docs/trading-rules.md §2.6) over random grids, directions, leverage
 * and candle walks: never two orders on one level, the net position is the sum of the fills (a neutral
 * grid's longs and shorts net), the wallet is what the fills, fees and funding say, and candles split
 * into several files give the same fills as one file.
 */
import { candlesAt, rangeStrategySchema } from '@gridbot/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RangeBacktest, runRangeBacktest } from '../../backtest/range-backtest';
import type { FundingRates } from '../../backtest/run-backtest';
import { money } from '../../money';
import { candlesOfWalk, candleWalkArb } from '../../testing/arbitraries';
import { TEST_FUTURE_RULES } from '../../testing/harness';
import { createRange, type RangeState } from './range.state';
import { rangeStartProblems } from './range-levels';

const T0 = Date.UTC(2024, 0, 1);
const HOUR = 3_600_000;
const R = TEST_FUTURE_RULES;

const gridArb = fc.record({
  lower: fc.integer({ min: 60, max: 95 }),
  width: fc.integer({ min: 10, max: 60 }),
  grids: fc.integer({ min: 2, max: 12 }),
  mode: fc.constantFrom('arithmetic', 'geometric'),
  direction: fc.constantFrom('long', 'short', 'neutral'),
  leverage: fc.integer({ min: 1, max: 20 }),
  trailing: fc.boolean(),
  stopGap: fc.option(fc.integer({ min: 1, max: 20 })),
  sellOnStop: fc.boolean(),
});

type GridInput = typeof gridArb extends fc.Arbitrary<infer T> ? T : never;

/** A funding time every 8 hours, the rate alternating in sign. */
const FUNDING: FundingRates = {
  timeMs: Float64Array.from({ length: 8 }, (_, i) => T0 + (i + 1) * 8 * HOUR),
  rate: Float64Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? 0.0001 : -0.00005)),
};

function gridOf(g: GridInput): RangeState | null {
  const params = rangeStrategySchema.parse({
    type: 'range',
    lower: g.lower,
    upper: g.lower + g.width,
    grids: g.grids,
    mode: g.mode,
    direction: g.direction,
    leverage: g.leverage,
    trailingUp: g.trailing && g.direction === 'long',
    trailingDown: g.trailing && g.direction === 'short',
    stopLoss: g.stopGap === null ? null : g.lower - g.stopGap,
    sellOnStop: g.sellOnStop,
  });
  if (rangeStartProblems(params, 100 * g.leverage, 100, R, 'future').length > 0) return null;
  return createRange({ params, investment: 100, market: 'future', rules: R, startTimeMs: T0 });
}

describe('futures range grid properties (§2.6)', () => {
  it('never has two orders on one level, nor an order outside the grid', () => {
    fc.assert(
      fc.property(gridArb, candleWalkArb, (g, walk) => {
        const s = gridOf(g);
        if (s === null) return;
        const c = candlesOfWalk(walk, T0, HOUR);
        const run = new RangeBacktest(s, R, { funding: FUNDING });
        for (let i = 0; i < c.open.length; i++) {
          run.feed(candlesAt(c, i, i + 1));
          const st = run.state;
          const levels = st.orders.map((o) => o.level);
          expect(new Set(levels).size).toBe(levels.length);
          for (const l of levels) {
            expect(l).toBeGreaterThanOrEqual(st.offset);
            expect(l).toBeLessThanOrEqual(st.offset + st.params.grids);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('nets its position to the sum of its fills, and its wallet to their PnL, fees and funding', () => {
    fc.assert(
      fc.property(gridArb, candleWalkArb, (g, walk) => {
        const s = gridOf(g);
        if (s === null) return;
        const r = runRangeBacktest(s, candlesOfWalk(walk, T0, HOUR), R, { funding: FUNDING });
        let pos = money(0);
        let fees = money(0);
        let funding = money(0);
        for (const f of r.fills) {
          if (f.side === 'FUNDING') funding = funding.plus(f.pnl);
          else pos = f.side === 'buy' ? pos.plus(f.qty) : pos.minus(f.qty);
          fees = fees.plus(f.fee);
        }
        expect(r.state.futures?.pos).toBe(pos.toNumber());
        expect(r.summary.fees).toBeCloseTo(fees.toNumber(), 9);
        expect(r.summary.funding).toBeCloseTo(funding.toNumber(), 9);
        expect(r.summary.totalPnl).toBeCloseTo(r.summary.gridProfit + r.summary.floatingPnl, 9);
        if (r.state.futures?.pos === 0) {
          // Flat: the total PnL is the wallet's change, whatever the price.
          expect(r.summary.totalPnl).toBeCloseTo(r.state.quote - 100, 9);
        }
        if (r.state.stopReason === 'liquidated') expect(r.state.futures?.pos).toBe(0);
      }),
      { numRuns: 150 },
    );
  });

  it('gives identical fills whether the candles come in one piece or split into files', () => {
    fc.assert(
      fc.property(
        gridArb,
        candleWalkArb,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
        (g, walk, cuts) => {
          const s = gridOf(g);
          if (s === null) return;
          const c = candlesOfWalk(walk, T0, HOUR);
          // Mark candles a little below the trades', read across the file boundaries too.
          const mark = { ...c, low: c.low.map((x) => x * 0.99), open: c.open, close: c.close };
          const whole = runRangeBacktest(s, c, R, { funding: FUNDING, mark });
          const n = c.open.length;
          const at = [...new Set(cuts.map((x) => Math.floor(x * n)))].sort((a, b) => a - b);
          const run = new RangeBacktest(s, R, { funding: FUNDING, mark });
          let from = 0;
          for (const to of [...at, n]) {
            run.feed(candlesAt(c, from, to));
            from = to;
          }
          const split = run.finish();
          expect(split.fills).toEqual(whole.fills);
          expect(split.summary).toEqual(whole.summary);
          expect(split.state).toEqual(whole.state);
        },
      ),
      { numRuns: 100 },
    );
  });
});
