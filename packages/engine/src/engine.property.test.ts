/**
 * Properties over random strategies and random price paths (fills at once at the tick price, as in a
 * backtest): the accounting identity, at most N lots, never selling more than held, overbuy protection,
 * determinism, and a JSON round trip of the state mid-run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGridBot, type GridBotState } from './core/grid-bot.state';
import { UNSET_BAND } from './core/quiet-band';
import { applyFill, step } from './engine';
import { simulateFill } from './fills/simulate-fill';
import { money } from './money';
import { totalPnl } from './pnl/pnl';
import type { GridParams } from './strategies/strategy-params';
import { runPrices, TEST_FUTURE_RULES, TEST_RULES } from './testing/harness';

const pct = (min: number, max: number) => fc.integer({ min: min * 10, max: max * 10 }).map((n) => n / 10);

/** Fractions summing to exactly 1 in decimal: weights rounded to 4 places, the rest on the last grid. */
function allocOf(weights: number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  const head = weights.slice(0, -1).map((w) => Math.floor((w / total) * 10_000) / 10_000);
  const last = money(1)
    .minus(head.reduce((s, a) => s.plus(a), money(0)))
    .toNumber();
  return [...head, last];
}

const paramsArb: fc.Arbitrary<GridParams> = fc
  .record({
    multigrid: fc.boolean(),
    weights: fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 8 }),
    buy: fc.array(pct(0.1, 4), { minLength: 8, maxLength: 8 }),
    buyUp: fc.array(pct(0, 1.5), { minLength: 8, maxLength: 8 }),
    tp: fc.array(pct(0.1, 4), { minLength: 8, maxLength: 8 }),
    tpDown: fc.array(pct(0, 1.5), { minLength: 8, maxLength: 8 }),
  })
  .map(({ multigrid, weights, buy, buyUp, tp, tpDown }) => {
    const n = weights.length;
    const alloc = allocOf(weights);
    const buyPct = [0, ...buy.slice(1, n)];
    if (!multigrid)
      return { type: 'scalping', name: 'p', grids: n, alloc, buyPct, tpPct: tp[0] ?? 1 } as const;
    return {
      type: 'multigrid',
      name: 'p',
      grids: n,
      alloc,
      buyPct,
      buyUpPct: [0, ...buyUp.slice(1, n)],
      tpPct: tp.slice(0, n),
      tpDownPct: tpDown.slice(0, n),
    } as const;
  });

/** A random walk from 100 in steps of up to ±3 %, prices to 2 decimals. */
const pathArb = fc
  .array(fc.integer({ min: -300, max: 300 }), { minLength: 20, maxLength: 300 })
  .map((moves) => {
    let p = 100;
    return moves.map((m) => {
      p = Math.max(1, Math.round(p * (1 + m / 10_000) * 100) / 100);
      return p;
    });
  });

const botArb = fc
  .record({
    params: paramsArb,
    investment: fc.integer({ min: 20, max: 200 }).map((n) => n * 50),
    future: fc.boolean(),
    leverage: fc.integer({ min: 1, max: 10 }),
    overbuy: fc.option(fc.integer({ min: 1, max: 8 })),
    stoploss: fc.option(fc.integer({ min: 50, max: 95 })),
    pause: fc.option(fc.integer({ min: 105, max: 150 })),
    restart: fc.option(fc.integer({ min: 80, max: 104 })),
    profitBook: fc.option(fc.integer({ min: 1, max: 20 })),
  })
  .map((b) =>
    createGridBot({
      params: b.params,
      investment: b.investment,
      market: b.future ? 'future' : 'spot',
      leverage: b.leverage,
      startTimeMs: 0,
      settings: {
        overbuy: { active: b.overbuy !== null, value: b.overbuy },
        stoplossPrice: b.stoploss,
        pausePrice: b.pause,
        restartPrice: b.restart,
        profitBookPct: b.profitBook,
      },
    }),
  );

const rulesOf = (bot: GridBotState) => (bot.market === 'future' ? TEST_FUTURE_RULES : TEST_RULES);
const feeOf = (bot: GridBotState) => (bot.market === 'future' ? 0.05 : 0.1);
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
