/**
 * Properties over random strategies and random price paths (fills at once at the tick price, as in a
 * backtest): the accounting identity, at most N lots, never selling more than held, overbuy protection,
 * determinism, and a JSON round trip of the state mid-run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GridBotState } from './core/grid-bot.state';
import { UNSET_BAND } from './core/quiet-band';
import { applyFill, step } from './engine';
import { simulateFill } from './fills/simulate-fill';
import { money } from './money';
import { totalPnl } from './pnl/pnl';
import { botArb, feeOf, pathArb, rulesOf } from './testing/arbitraries';
import { runPrices } from './testing/harness';

const run = (bot: GridBotState, path: number[]) => runPrices(bot, path, rulesOf(bot), { feePct: feeOf(bot) });

describe('engine properties', () => {
  it('keeps cash + position value equal to investment + total PnL, and fees inside it', () => {
    fc.assert(
      fc.property(botArb, pathArb, (bot, path) => {
        const { log } = run(bot, path);
        let cash = money(bot.account.investment);
        let fees = money(0);
        for (const t of log) {
          for (const f of t.fills) {
            const q = money(f.quote);
            cash = f.side === 'buy' ? cash.minus(q).minus(f.fee) : cash.plus(q).minus(f.fee);
            fees = fees.plus(f.fee);
          }
          const a = t.state.account;
          const position = money(a.openQty).times(t.price);
          const lhs = cash.plus(position).toNumber();
          const rhs = money(a.investment).plus(totalPnl(a, t.price)).toNumber();
          expect(Math.abs(lhs - rhs)).toBeLessThan(1e-6);
          expect(a.fees).toBeCloseTo(fees.toNumber(), 9);
          // Each lot costs at most its grid's quote: investment × alloc[grid] (× leverage for notional).
          for (const l of t.state.lots) {
            const planned = money(a.investment)
              .times(bot.params.alloc[l.grid - 1] ?? 0)
              .times(bot.leverage);
            expect(money(l.quote).lte(planned)).toBe(true);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('never holds more than N lots (nor more than the overbuy value) and never sells more than held', () => {
    fc.assert(
      fc.property(botArb, pathArb, (bot, path) => {
        const { log } = run(bot, path);
        const bought = new Map<number, number>();
        const sold = new Map<number, number>();
        const ob = bot.settings.overbuy;
        for (const t of log) {
          for (const l of t.opened) bought.set(l.id, l.qty);
          for (const c of t.closed) {
            sold.set(
              c.lotId,
              money(sold.get(c.lotId) ?? 0)
                .plus(c.qty)
                .toNumber(),
            );
            expect(sold.get(c.lotId)).toBeLessThanOrEqual(bought.get(c.lotId) ?? 0);
          }
          expect(t.state.lots.length).toBeLessThanOrEqual(bot.params.grids);
          if (ob.active && ob.value !== null)
            expect(t.state.lots.length).toBeLessThanOrEqual(Math.max(1, ob.value));
          expect(t.state.account.openQty).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('gives identical output for identical input', () => {
    fc.assert(
      fc.property(botArb, pathArb, (bot, path) => {
        expect(JSON.stringify(run(bot, path))).toBe(JSON.stringify(run(bot, path)));
      }),
      { numRuns: 30 },
    );
  });

  it('decides the same with and without the quiet band (the hot-path cache)', () => {
    const strip = (s: GridBotState) => JSON.stringify({ ...s, quiet: null });
    fc.assert(
      fc.property(botArb, pathArb, (bot, path) => {
        let s = bot;
        path.forEach((price, i) => {
          const tick = { price, timeMs: i * 60_000 };
          const cached = step(s, tick, rulesOf(bot));
          const full = step({ ...s, quiet: UNSET_BAND }, tick, rulesOf(bot));
          expect(strip(cached.state)).toBe(strip(full.state));
          expect(cached.intents).toEqual(full.intents);
          s = cached.state;
          for (const intent of cached.intents)
            s = applyFill(s, simulateFill(intent, price, tick.timeMs, feeOf(bot)));
        });
      }),
      { numRuns: 60 },
    );
  });

  it('continues identically after a JSON round trip of the state mid-run', () => {
    fc.assert(
      fc.property(botArb, pathArb, fc.nat(), (bot, path, cut) => {
        const at = cut % path.length;
        const straight = run(bot, path);
        const first = run(bot, path.slice(0, at));
        const reloaded = JSON.parse(JSON.stringify(first.state)) as GridBotState;
        const rest = runPrices(reloaded, path.slice(at), rulesOf(bot), {
          feePct: feeOf(bot),
          startMs: 1_700_000_000_000 + at * 60_000,
        });
        expect(JSON.stringify(rest.state)).toBe(JSON.stringify(straight.state));
        const fills = (l: typeof straight.log) => JSON.stringify(l.map((t) => t.fills));
        expect(fills(rest.log)).toBe(fills(straight.log.slice(at)));
      }),
      { numRuns: 60 },
    );
  });
});
