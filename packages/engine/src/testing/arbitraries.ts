/**
 * fast-check arbitraries for the engine's property tests: random Multigrid and Scalping bots (spot or
 * futures, with or without each risk setting) and random price paths.
 */
import { emptyCandles } from '@gridbot/shared';
import fc from 'fast-check';
import type { Candles } from '../backtest/candles';
import { createGridBot, type GridBotState } from '../core/grid-bot.state';
import { money } from '../money';
import type { GridParams } from '../strategies/strategy-params';
import { TEST_FUTURE_RULES, TEST_RULES } from './harness';

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

export const paramsArb: fc.Arbitrary<GridParams> = fc
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
export const pathArb = fc
  .array(fc.integer({ min: -300, max: 300 }), { minLength: 20, maxLength: 300 })
  .map((moves) => {
    let p = 100;
    return moves.map((m) => {
      p = Math.max(1, Math.round(p * (1 + m / 10_000) * 100) / 100);
      return p;
    });
  });

export const botArb = fc
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

export const rulesOf = (bot: GridBotState) => (bot.market === 'future' ? TEST_FUTURE_RULES : TEST_RULES);
export const feeOf = (bot: GridBotState) => (bot.market === 'future' ? 0.05 : 0.1);

/** A random walk of 1–60 candles: each a move within ±6 % and how far its wicks reach (0–1 of 2 %). */
export const candleWalkArb = fc.array(
  fc.tuple(fc.double({ min: -0.06, max: 0.06, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
  { minLength: 1, maxLength: 60 },
);

/** The walk's candles from 100, opening `intervalMs` apart from `t0`, prices on the cent. */
export function candlesOfWalk(
  walk: readonly (readonly [number, number])[],
  t0: number,
  intervalMs: number,
): Candles {
  const n = walk.length;
  const c: Candles = emptyCandles(n);
  let p = 100;
  walk.forEach(([move, wick], i) => {
    const o = p;
    const cl = Math.round(o * (1 + move) * 100) / 100;
    c.openTimeMs[i] = t0 + i * intervalMs;
    c.open[i] = o;
    c.close[i] = cl;
    c.high[i] = Math.round(Math.max(o, cl) * (1 + wick * 0.02) * 100) / 100;
    c.low[i] = Math.round(Math.min(o, cl) * (1 - wick * 0.02) * 100) / 100;
    p = cl;
  });
  return c;
}
