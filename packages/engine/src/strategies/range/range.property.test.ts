/**
 * Properties of the range grid (docs/trading-rules.md §2.6) over random grids and random candle walks: never
 * two orders on one level, never more locked in resting orders than held, the coin and USDT held are exactly what the fills say (each fill changes
 * the bot's value at its price by its fee alone), and candles split into several files give the
 * same fills as one file.
 */
import { candlesAt, rangeStrategySchema } from '@gridbot/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RangeBacktest, runRangeBacktest } from '../../backtest/range-backtest';
import { money } from '../../money';
import { candlesOfWalk, candleWalkArb } from '../../testing/arbitraries';
import { TEST_RULES } from '../../testing/harness';
import { createRange, type RangeState } from './range.state';
import { rangeStartProblems } from './range-levels';

const T0 = Date.UTC(2024, 0, 1);

const gridArb = fc.record({
  lower: fc.integer({ min: 60, max: 95 }),
  width: fc.integer({ min: 10, max: 60 }),
  grids: fc.integer({ min: 2, max: 12 }),
  mode: fc.constantFrom('arithmetic', 'geometric'),
  trailingUp: fc.boolean(),
  stopGap: fc.option(fc.integer({ min: 1, max: 20 })),
  sellOnStop: fc.boolean(),
});

type GridInput = typeof gridArb extends fc.Arbitrary<infer T> ? T : never;

function gridOf(g: GridInput): RangeState | null {
  const params = rangeStrategySchema.parse({
    type: 'range',
    lower: g.lower,
    upper: g.lower + g.width,
    grids: g.grids,
    mode: g.mode,
    trailingUp: g.trailingUp,
    stopLoss: g.stopGap === null ? null : g.lower - g.stopGap,
    sellOnStop: g.sellOnStop,
  });
  if (rangeStartProblems(params, 1000, 100, TEST_RULES, 'spot').length > 0) return null;
  return createRange({ params, investment: 1000, market: 'spot', rules: TEST_RULES, startTimeMs: T0 });
}

describe('range grid properties (§2.6)', () => {
  it('never has two orders on one level, nor an order outside the grid', () => {
    fc.assert(
      fc.property(gridArb, candleWalkArb, (g, walk) => {
        const s = gridOf(g);
        if (s === null) return;
        const c = candlesOfWalk(walk, T0, 60_000);
        const run = new RangeBacktest(s, TEST_RULES);
        for (let i = 0; i < c.open.length; i++) {
          run.feed(candlesAt(c, i, i + 1));
          const st = run.state;
          const levels = st.orders.map((o) => o.level);
          expect(new Set(levels).size).toBe(levels.length);
          for (const l of levels) {
            expect(l).toBeGreaterThanOrEqual(st.offset);
            expect(l).toBeLessThanOrEqual(st.offset + st.params.grids);
          }
          expect(st.quote).toBeGreaterThanOrEqual(0);
          expect(st.base).toBeGreaterThanOrEqual(0);
          // Resting orders lock no more than the grid holds: the exchange would refuse such an order.
          expect(st.lockedQuote).toBeLessThanOrEqual(st.quote + 1e-9);
          expect(st.lockedBase).toBeLessThanOrEqual(st.base + 1e-12);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('holds exactly what its fills say: each fill changes its value at the fill price by the fee alone', () => {
    fc.assert(
      fc.property(gridArb, candleWalkArb, (g, walk) => {
        const s = gridOf(g);
        if (s === null) return;
        const r = runRangeBacktest(s, candlesOfWalk(walk, T0, 60_000), TEST_RULES);
        let base = money(0);
        let quote = money(1000);
        for (const f of r.fills) {
          const before = quote.plus(base.times(f.price));
          if (f.side === 'buy') {
            // The buy's commission is taken in the coin (§2.1): the row shows it in USDT at the fill price.
            base = base.plus(f.qty).minus(money(f.fee).dividedBy(f.price));
            quote = quote.minus(f.quote);
          } else {
            base = base.minus(f.qty);
            quote = quote.plus(f.quote).minus(f.fee);
          }
          expect(quote.plus(base.times(f.price)).minus(before.minus(f.fee)).abs().toNumber()).toBeLessThan(
            1e-9,
          );
          expect(money(f.qty).times(f.price).minus(f.quote).abs().toNumber()).toBeLessThan(1e-9);
        }
        expect(Math.abs(r.state.base - base.toNumber())).toBeLessThan(1e-12);
        expect(Math.abs(r.state.quote - quote.toNumber())).toBeLessThan(1e-9);
        expect(r.summary.fees).toBeCloseTo(
          r.fills.reduce((t, f) => t + f.fee, 0),
          9,
        );
        expect(r.summary.totalPnl).toBeCloseTo(r.summary.gridProfit + r.summary.floatingPnl, 9);
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
          const c = candlesOfWalk(walk, T0, 60_000);
          const whole = runRangeBacktest(s, c, TEST_RULES);
          const n = c.open.length;
          const at = [...new Set(cuts.map((x) => Math.floor(x * n)))].sort((a, b) => a - b);
          const run = new RangeBacktest(s, TEST_RULES);
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
