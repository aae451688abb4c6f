/** Cycle properties over random parameters and price paths (fills at once, as in backtests). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { money } from '../../money';
import { totalPnl } from '../../pnl/pnl';
import { runPrices, TEST_FUTURE_RULES, TEST_RULES } from '../../testing/harness';
import { type CycleState, createCycle } from './cycle.state';

const cycleArb = fc
  .record({
    buy: fc.integer({ min: 90, max: 100 }),
    gain: fc.integer({ min: 1, max: 10 }),
    sl: fc.option(fc.integer({ min: 70, max: 89 })),
    cycles: fc.integer({ min: 1, max: 5 }),
    amount: fc.integer({ min: 10, max: 1000 }),
    future: fc.boolean(),
    leverage: fc.integer({ min: 1, max: 10 }),
  })
  .map((c) =>
    createCycle({
      params: {
        buyPrice: c.buy,
        sellPrice: c.buy + c.gain,
        stopLoss: c.sl,
        cycles: c.cycles,
        amount: c.amount,
      },
      market: c.future ? 'future' : 'spot',
      leverage: c.leverage,
      startTimeMs: 0,
    }),
  );

const pathArb = fc.array(fc.integer({ min: 60, max: 115 }), { minLength: 5, maxLength: 120 });

const run = (c: CycleState, path: number[], startMs?: number) =>
  runPrices(c, path, c.market === 'future' ? TEST_FUTURE_RULES : TEST_RULES, {
    feePct: c.market === 'future' ? 0.05 : 0.1,
    startMs,
  });

describe('cycle properties', () => {
  it('holds at most one lot, never exceeds no_of_cycle, and keeps the accounting identity', () => {
    fc.assert(
      fc.property(cycleArb, pathArb, (c, path) => {
        let cash = money(c.account.investment);
        for (const t of run(c, path).log) {
          for (const f of t.fills)
            cash = f.side === 'buy' ? cash.minus(f.quote).minus(f.fee) : cash.plus(f.quote).minus(f.fee);
          const a = t.state.account;
          expect(t.state.lots.length).toBeLessThanOrEqual(1);
          expect(t.state.cyclesCompleted).toBeLessThanOrEqual(c.params.cycles);
          const lhs = cash.plus(money(a.openQty).times(t.price)).toNumber();
          expect(Math.abs(lhs - money(a.investment).plus(totalPnl(a, t.price)).toNumber())).toBeLessThan(
            1e-6,
          );
        }
      }),
      { numRuns: 100 },
    );
  });

  it('continues identically after a JSON round trip mid-run', () => {
    fc.assert(
      fc.property(cycleArb, pathArb, fc.nat(), (c, path, cut) => {
        const at = cut % path.length;
        const straight = run(c, path);
        const first = run(c, path.slice(0, at));
        const rest = run(
          JSON.parse(JSON.stringify(first.state)),
          path.slice(at),
          1_700_000_000_000 + at * 60_000,
        );
        expect(JSON.stringify(rest.state)).toBe(JSON.stringify(straight.state));
      }),
      { numRuns: 60 },
    );
  });
});
