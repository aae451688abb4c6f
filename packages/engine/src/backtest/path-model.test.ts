/**
 * The path fill model of docs/trading-rules.md §2.5, worked by hand on small candle sets: the bot acts at the level
 * its rule crosses, not at the candle's extreme, and fills are rounded to the tick against it.
 */
import { candlesAt, emptyCandles } from '@gridbot/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineState } from '../engine';
import { createCycle } from '../strategies/cycle/cycle.state';
import { TEST_FUTURE_RULES, TEST_RULES } from '../testing/harness';
import { multigridBot, scalpingBot } from '../testing/strategies';
import type { Candles } from './candles';
import { type BacktestOptions, type FillRecord, PathBacktest, runBacktest } from './run-backtest';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;

/** Candles from rows of [open, high, low, close], one minute apart from T0. */
function candles(rows: readonly (readonly [number, number, number, number])[]): Candles {
  const n = rows.length;
  const c: Candles = emptyCandles(n);
  rows.forEach(([o, h, l, cl], i) => {
    c.openTimeMs[i] = T0 + i * MIN;
    c.open[i] = o;
    c.high[i] = h;
    c.low[i] = l;
    c.close[i] = cl;
  });
  return c;
}

const brief = (f: FillRecord) => `${f.side} g${f.grid} @${f.price} t${(f.time - T0) / MIN}`;
// The path model is the subject here: fees in USDT keep the lots' quantities whole numbers of steps (the coin
// commission and its dust: spot-dust.test.ts).
const OPTS: BacktestOptions = { feePct: 0.1, spotBuyFeeAsset: 'quote' };

describe('path model, hand-worked (docs/trading-rules.md §2.5)', () => {
  it('buys at the grid level a candle crosses, not at its low', () => {
    // Grid 2 buys 2 % below grid 1 (98). The second candle runs 100 → 100.5 → 97 → 99.5.
    const bot = multigridBot({ alloc: [0.5, 0.5], buy: [2], tp: [2, 2] });
    const r = runBacktest(
      bot,
      candles([
        [100, 100, 100, 100],
        [100, 100.5, 97, 99.5],
      ]),
      TEST_RULES,
      OPTS,
    );
    expect(r.fills.map(brief)).toEqual(['buy g1 @100 t0', 'buy g2 @98 t1']);
    // Its take-profit (98 × 1.02 = 99.96) is above the close 99.5: nothing sold.
    expect(r.summary.openGrids).toBe(2);
  });

  it('acts on the line from one close to the next open (a gap), at the next candle’s time', () => {
    const bot = multigridBot({ alloc: [1], tp: [5] }, { settings: { stoplossPrice: 97 } });
    const r = runBacktest(
      bot,
      candles([
        [100, 100, 100, 100],
        [95, 95, 95, 95],
      ]),
      TEST_RULES,
      OPTS,
    );
    expect(r.fills.map(brief)).toEqual(['buy g1 @100 t0', 'sell g1 @97 t1']);
    expect(r.summary.stopReason).toBe('stoploss');
  });

  it('buys a trailing grid at the rebound from the low the path reached', () => {
    // Grid 2 arms at 98, the low follows the path to 95, it buys at 95 × 1.01 = 95.95 on the way up.
    const bot = multigridBot({ alloc: [0.5, 0.5], buy: [2], buyUp: [1], tp: [5, 5] });
    const r = runBacktest(
      bot,
      candles([
        [100, 100, 100, 100],
        [100, 100, 95, 99],
      ]),
      TEST_RULES,
      OPTS,
    );
    expect(r.fills.map(brief)).toEqual(['buy g1 @100 t0', 'buy g2 @95.95 t1']);
  });

  it('arms a take-profit and sells it on the way back in one candle', () => {
    // tp 2 % arms at 102, the high follows to 104, the 1 % trailing sells at 102.96 on the way down;
    // the empty stack then buys grid 1 again at that price.
    const trailing = multigridBot({ alloc: [1], tp: [2], tpDown: [1] });
    const path = candles([
      [100, 100, 100, 100],
      [100, 104, 100, 101],
    ]);
    expect(runBacktest(trailing, path, TEST_RULES, OPTS).fills.map(brief)).toEqual([
      'buy g1 @100 t0',
      'sell g1 @102.96 t1',
      'buy g1 @102.96 t1',
    ]);
    // Without trailing the lot sells where it arms: 102, not at the high 104.
    const plain = multigridBot({ alloc: [1], tp: [2] });
    expect(runBacktest(plain, path, TEST_RULES, OPTS).fills.map(brief)).toEqual([
      'buy g1 @100 t0',
      'sell g1 @102 t1',
      'buy g1 @102 t1',
    ]);
  });

  it('sells Scalping at the average entry’s take-profit level', () => {
    // Lots of 5 at 100 and 5.102 at 98: average 98.9899…, tp 1 % → 99.9798…: both sell at the level
    // rounded down, 99.97, and the new grid 1 buys at it rounded up, 99.98; its take-profit 100.9798 sells
    // at 100.97.
    const bot = scalpingBot({ alloc: [0.5, 0.5], buy: [2], tp: 1 });
    const r = runBacktest(
      bot,
      candles([
        [100, 100, 100, 100],
        [100, 100, 97, 97],
        [97, 101, 97, 101],
      ]),
      TEST_RULES,
      OPTS,
    );
    expect(r.fills.map(brief)).toEqual([
      'buy g1 @100 t0',
      'buy g2 @98 t1',
      'sell g2 @99.97 t2',
      'sell g1 @99.97 t2',
      'buy g1 @99.98 t2',
      'sell g1 @100.97 t2',
      'buy g1 @100.98 t2',
    ]);
  });

  it('stoploss above the liquidation price: the stoploss fills on the way down', () => {
    // 5×: liquidation 80.40201006. One candle falls from 100 to 70.
    const bot = multigridBot(
      { alloc: [1], tp: [50] },
      { market: 'future', leverage: 5, settings: { stoplossPrice: 90 } },
    );
    const r = runBacktest(
      bot,
      candles([
        [100, 100, 100, 100],
        [100, 100, 70, 70],
      ]),
      TEST_FUTURE_RULES,
      { feePct: 0.05 },
    );
    expect(r.fills.map(brief)).toEqual(['buy g1 @100 t0', 'sell g1 @90 t1']);
    expect(r.summary.stopReason).toBe('stoploss');
  });

  it('stoploss below the liquidation price: the position is liquidated first, losing its margin only', () => {
    const bot = multigridBot(
      { alloc: [1], tp: [50] },
      { market: 'future', leverage: 5, settings: { stoplossPrice: 60 } },
    );
    const r = runBacktest(
      bot,
      candles([
        [100, 100, 100, 100],
        [100, 100, 50, 50],
      ]),
      TEST_FUTURE_RULES,
      { feePct: 0.05 },
    );
    expect(r.fills.map(brief)).toEqual(['buy g1 @100 t0', 'sell g1 @80.40201006 t1']);
    expect(r.summary.stopReason).toBe('liquidated');
    // Margin 1000 and the buy fee 2.5 are lost; nothing more.
    expect(r.summary.totalPnl).toBe(-1002.5);
  });

  it('a cycle whose stop is below its buy buys at the buy price and stops at a loss', () => {
    // Buy 56,000, stop 45,000; the candle 57,000 / 57,000 / 44,000 / 44,500.
    const cycle = createCycle({
      params: { buyPrice: 56_000, sellPrice: 60_000, stopLoss: 45_000, cycles: 1, amount: 1000 },
      market: 'spot',
      startTimeMs: T0,
    });
    const r = runBacktest(cycle, candles([[57_000, 57_000, 44_000, 44_500]]), TEST_RULES, OPTS);
    expect(r.fills.map(brief)).toEqual(['buy g1 @56000 t0', 'sell g1 @45000 t0']);
    // 0.017 BTC: bought for 952, sold for 765, fees 0.952 + 0.765.
    expect(r.summary.bookedProfit).toBeCloseTo(765 - 952 - 0.952 - 0.765, 9);
    expect(r.summary.stopReason).toBe('stoploss');
  });

  it('moves fill prices against the bot by the slippage, then rounds to the tick', () => {
    const bot = multigridBot({ alloc: [1], tp: [2] });
    const r = runBacktest(
      bot,
      candles([
        [100, 100, 100, 100],
        [100, 103, 100, 103],
      ]),
      TEST_RULES,
      { feePct: 0.1, slippageBps: 5 },
    );
    // Buy 100 × 1.0005 = 100.05; the take-profit level 100.05 × 1.02 = 102.051: the sell fills at
    // 102.051 × 0.9995 = 101.99997… → 101.99 and grid 1 buys again at 102.051 × 1.0005 = 102.102… → 102.11.
    expect(r.fills.map(brief)).toEqual(['buy g1 @100.05 t0', 'sell g1 @101.99 t1', 'buy g1 @102.11 t1']);
  });
});

/** Candles on a 0.01 tick around 100, as random walks of their open, with highs and lows around. */
const candleRows = fc
  .array(
    fc.tuple(
      fc.integer({ min: -300, max: 300 }),
      fc.integer({ min: 0, max: 400 }),
      fc.integer({ min: 0, max: 400 }),
      fc.integer({ min: -400, max: 400 }),
    ),
    { minLength: 1, maxLength: 60 },
  )
  .map((steps) => {
    let open = 10_000;
    return steps.map(([gap, up, down, move]) => {
      open = Math.max(3_000, open + gap);
      const close = Math.max(1_000, open + move);
      const high = Math.max(open, close) + up;
      const low = Math.max(500, Math.min(open, close) - down);
      return [open / 100, high / 100, low / 100, close / 100] as const;
    });
  });

const bots = fc.oneof(
  fc
    .record({
      buy: fc.integer({ min: 1, max: 40 }),
      buyUp: fc.integer({ min: 0, max: 20 }),
      tp: fc.integer({ min: 1, max: 40 }),
      tpDown: fc.integer({ min: 0, max: 20 }),
      stop: fc.option(fc.integer({ min: 50, max: 95 })),
    })
    .map(
      ({ buy, buyUp, tp, tpDown, stop }): EngineState =>
        multigridBot(
          {
            alloc: [0.4, 0.3, 0.3],
            buy: [buy / 10, buy / 10],
            buyUp: [buyUp / 10, buyUp / 10],
            tp: [tp / 10, tp / 10, tp / 10],
            tpDown: [tpDown / 10, tpDown / 10, tpDown / 10],
          },
          { settings: { stoplossPrice: stop } },
        ),
    ),
  fc
    .record({ buy: fc.integer({ min: 1, max: 40 }), tp: fc.integer({ min: 1, max: 40 }) })
    .map(({ buy, tp }): EngineState => scalpingBot({ alloc: [0.5, 0.5], buy: [buy / 10], tp: tp / 10 })),
  fc
    .record({
      buy: fc.integer({ min: 90, max: 105 }),
      up: fc.integer({ min: 1, max: 10 }),
      stop: fc.option(fc.integer({ min: 60, max: 89 })),
    })
    .map(
      ({ buy, up, stop }): EngineState =>
        createCycle({
          params: { buyPrice: buy, sellPrice: buy + up, stopLoss: stop, cycles: 3, amount: 100 },
          market: 'spot',
          startTimeMs: T0,
        }),
    ),
);

// Each property runs a hundred backtests.
describe('path model properties', { timeout: 60_000 }, () => {
  it('gives identical fills whether the candles come in one piece or split into any number of files', () => {
    fc.assert(
      fc.property(bots, candleRows, fc.array(fc.nat(), { maxLength: 5 }), (bot, rows, cuts) => {
        const whole = runBacktest(bot, candles(rows), TEST_RULES, OPTS);
        const all = candles(rows);
        const points = [...new Set(cuts.map((c) => c % (rows.length + 1)))].sort((a, b) => a - b);
        const run = new PathBacktest(bot, TEST_RULES, OPTS);
        let from = 0;
        for (const to of [...points, rows.length]) {
          run.feed(candlesAt(all, from, to));
          from = to;
        }
        const split = run.finish();
        expect(split.fills).toEqual(whole.fills);
        expect(split.summary).toEqual(whole.summary);
      }),
    );
  });

  it('fills inside the candle’s path (its range and the line from the previous close) and on the tick', () => {
    fc.assert(
      fc.property(bots, candleRows, (bot, rows) => {
        const r = runBacktest(bot, candles(rows), TEST_RULES, OPTS);
        for (const f of r.fills) {
          const i = (f.time - T0) / MIN;
          const [, h, l] = rows[i] as readonly number[];
          const prevClose = i > 0 ? (rows[i - 1]?.[3] as number) : (h as number);
          expect(f.price).toBeGreaterThanOrEqual(Math.min(l as number, prevClose) - 1e-9);
          expect(f.price).toBeLessThanOrEqual(Math.max(h as number, prevClose) + 1e-9);
          const ticks = f.price / 0.01;
          expect(Math.abs(ticks - Math.round(ticks))).toBeLessThan(1e-6);
        }
      }),
    );
  });

  it('an isolated futures position never loses more than its margin and fees, whatever the stoploss', () => {
    fc.assert(
      fc.property(
        candleRows,
        fc.integer({ min: 2, max: 50 }),
        fc.option(fc.integer({ min: 30, max: 99 })),
        (rows, leverage, stop) => {
          const bot = multigridBot(
            { alloc: [0.5, 0.5], buy: [3], tp: [2, 2] },
            { market: 'future', leverage, settings: { stoplossPrice: stop } },
          );
          const r = runBacktest(bot, candles(rows), TEST_FUTURE_RULES, { feePct: 0.05 });
          // The margin is what the buys' notionals lock: a buy sized at the tick it was decided on fills at
          // its level rounded up, a tick above, so it may lock a little more than its share of the investment.
          const margin = r.fills.reduce((m, f) => (f.side === 'buy' ? m + f.quote / leverage : m), 0);
          expect(r.summary.bookedProfit).toBeGreaterThanOrEqual(-margin - r.summary.fees - 1e-6);
        },
      ),
    );
  });
});
