/**
 * Properties of the range grid (docs/trading-rules.md §2.6) over random grids and random candle walks: never
 * two orders on one level, the coin and USDT held are exactly what the fills say (each fill changes
 * the bot's value at its price by its fee alone), and candles split into several files give the
 * same fills as one file.
 */
import { rangeStrategySchema } from '@gridbot/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Candles } from '../../backtest/candles';
import { RangeBacktest, runRangeBacktest } from '../../backtest/range-backtest';
import { money } from '../../money';
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

/** A random walk of 1–60 candles from 100, each move within ±6 %. */
const walkArb = fc.array(
  fc.tuple(fc.double({ min: -0.06, max: 0.06, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
  { minLength: 1, maxLength: 60 },
);

function candlesOf(walk: readonly (readonly [number, number])[]): Candles {
  const n = walk.length;
  const c: Candles = {
    openTimeMs: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
  };
  let p = 100;
  walk.forEach(([move, wick], i) => {
    const o = p;
    const cl = Math.round(o * (1 + move) * 100) / 100;
    c.openTimeMs[i] = T0 + i * 60_000;
    c.open[i] = o;
    c.close[i] = cl;
    c.high[i] = Math.round(Math.max(o, cl) * (1 + wick * 0.02) * 100) / 100;
    c.low[i] = Math.round(Math.min(o, cl) * (1 - wick * 0.02) * 100) / 100;
    p = cl;
  });
  return c;
}

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
      fc.property(gridArb, walkArb, (g, walk) => {
        const s = gridOf(g);
        if (s === null) return;
        const c = candlesOf(walk);
        const run = new RangeBacktest(s, TEST_RULES);
        for (let i = 0; i < c.open.length; i++) {
          run.feed(slice(c, i, i + 1));
          const st = run.state;
          const levels = st.orders.map((o) => o.level);
          expect(new Set(levels).size).toBe(levels.length);
          for (const l of levels) {
            expect(l).toBeGreaterThanOrEqual(st.offset);
            expect(l).toBeLessThanOrEqual(st.offset + st.params.grids);
          }
          expect(st.quote).toBeGreaterThanOrEqual(0);
          expect(st.base).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('holds exactly what its fills say: each fill changes its value at the fill price by the fee alone', () => {
    fc.assert(
      fc.property(gridArb, walkArb, (g, walk) => {
        const s = gridOf(g);
        if (s === null) return;
        const r = runRangeBacktest(s, candlesOf(walk), TEST_RULES);
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
        walkArb,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
        (g, walk, cuts) => {
          const s = gridOf(g);
          if (s === null) return;
          const c = candlesOf(walk);
          const whole = runRangeBacktest(s, c, TEST_RULES);
          const n = c.open.length;
          const at = [...new Set(cuts.map((x) => Math.floor(x * n)))].sort((a, b) => a - b);
          const run = new RangeBacktest(s, TEST_RULES);
          let from = 0;
          for (const to of [...at, n]) {
            run.feed(slice(c, from, to));
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

function slice(c: Candles, from: number, to: number): Candles {
  return {
    openTimeMs: c.openTimeMs.subarray(from, to),
    open: c.open.subarray(from, to),
    high: c.high.subarray(from, to),
    low: c.low.subarray(from, to),
    close: c.close.subarray(from, to),
  };
}
