/**
 * Spot dust (docs/trading-rules.md §2.1): a buy's commission is taken in the coin received, so a lot holds
 * qty − commission, just under a step. The bot carries that remainder and every sell sells
 * floor((Σ lots' net + dust) / step) × step; what stays is kept on the bot and valued at the last price.
 */
import { describe, expect, it } from 'vitest';
import { stopAndSell } from '../commands';
import { applyFill, applyIntentDustDetailed, step } from '../engine';
import { totalPnl, unrealizedPnl } from '../pnl/pnl';
import { TEST_RULES } from '../testing/harness';
import { multigridBot } from '../testing/strategies';
import type { SellLots } from '../types';
import type { Candles } from './candles';
import { runBacktest } from './run-backtest';

function candles(rows: readonly [number, number, number, number][]): Candles {
  return {
    openTimeMs: Float64Array.from(rows.map((_, i) => i * 60_000)),
    open: Float64Array.from(rows.map((r) => r[0])),
    high: Float64Array.from(rows.map((r) => r[1])),
    low: Float64Array.from(rows.map((r) => r[2])),
    close: Float64Array.from(rows.map((r) => r[3])),
  };
}

/**
 * 1000.5 USDT, one grid, take-profit 2 %, pause at 104.04; step 0.001. Hand-worked with 0.1 % fees:
 * - @100 buy 10.005, commission 0.010005 in the coin: the lot holds 9.994995.
 * - @102 (take-profit) sell floor(9.994995) = 9.994, dust 0.000995; grid 1 buys again:
 *   floor(1000.5 / 102) = 9.808, commission 0.009808, the lot holds 9.798192.
 * - @104.04 (pause) sell floor(9.798192 + 0.000995 = 9.799187) = 9.799, dust 0.000187.
 */
const TRIP = candles([
  [100, 100, 100, 100],
  [100, 102, 100, 102],
  [102, 104.04, 102, 104.04],
]);

describe('spot dust', () => {
  it('takes the commission in the coin by default and carries the dust into the next sell', () => {
    const bot = multigridBot(
      { alloc: [1], tp: [2] },
      { investment: 1000.5, settings: { pausePrice: 104.04 } },
    );
    const r = runBacktest(bot, TRIP, TEST_RULES, { feePct: 0.1 });
    expect(r.fills.map((f) => [f.side, f.price, f.qty])).toEqual([
      ['buy', 100, 10.005],
      ['sell', 102, 9.994],
      ['buy', 102, 9.808],
      ['sell', 104.04, 9.799],
    ]);
    // The buy rows show the commission in USDT: 0.010005 × 100, 0.009808 × 102.
    expect(r.fills.filter((f) => f.side === 'buy').map((f) => f.fee)).toEqual([1.0005, 1.000416]);
    expect(r.state.account.dustQty).toBe(0.000187);
    expect(r.state.status).toBe('Pause');
  });

  it('values the dust at the last price, never at zero', () => {
    const bot = multigridBot(
      { alloc: [1], tp: [2] },
      { investment: 1000.5, settings: { pausePrice: 104.04 } },
    );
    const r = runBacktest(bot, TRIP, TEST_RULES, { feePct: 0.1 });
    // Nothing open but 0.000187 coin at 104.04, less the 0.1 % a sale of it would pay.
    expect(r.summary.unrealizedPnl).toBeCloseTo(0.000187 * 104.04 * 0.999, 12);
    expect(r.summary.totalPnl).toBeCloseTo(r.summary.bookedProfit + 0.000187 * 104.04 * 0.999, 12);
  });

  it('sells the lots and the dust together on stop with sell', () => {
    const bot = multigridBot({ alloc: [1], tp: [50] }, { investment: 1000.5 });
    let s = { ...bot, account: { ...bot.account, dustQty: 0.000995 } };
    const buy = step(s, { price: 100, timeMs: 1 }, TEST_RULES);
    s = applyFill(buy.state, {
      seq: 1,
      side: 'buy',
      price: 100,
      qty: '10.005',
      quote: '1000.5',
      fee: '0.010005',
      feeAsset: 'base',
      timeMs: 1,
    });
    const r = step(stopAndSell(s), { price: 101, timeMs: 2 }, TEST_RULES);
    const sell = r.intents[0] as SellLots;
    // 9.994995 + 0.000995 = 9.99599 → 9.995 (without the dust: 9.994).
    expect(sell.qty).toBe('9.995');
    const done = applyFill(r.state, {
      seq: sell.seq,
      side: 'sell',
      price: 101,
      qty: sell.qty,
      quote: '1009.495',
      fee: '1.009495',
      timeMs: 2,
    });
    expect(done.account.dustQty).toBe(0.00099);
    expect(done.lots).toEqual([]);
  });

  it('counts dust a refused sell left once: at the price it was booked, then sold with the next lots', () => {
    const bot = multigridBot({ alloc: [0.5, 0.5], buy: [10], tp: [50, 50] });
    const b = step(bot, { price: 100, timeMs: 1 }, TEST_RULES);
    const s = applyFill(b.state, {
      seq: 1,
      side: 'buy',
      price: 100,
      qty: '5',
      quote: '500',
      fee: '0.005',
      feeAsset: 'base',
      timeMs: 1,
    });
    const r = step(stopAndSell(s), { price: 90, timeMs: 2 }, TEST_RULES);
    const sell = r.intents[0] as SellLots;
    // The runtime reports the sell cannot go out: 4.995 coins closed at 90 (449.55 − 500), kept as dust.
    const left = applyIntentDustDetailed(r.state, sell.seq, 3).state;
    expect(left.account).toMatchObject({ dustQty: 4.995, dustCost: 449.55, bookedProfit: -50.45 });
    expect(unrealizedPnl(left.account, 90)).toBe(0);
    expect(totalPnl(left.account, 95)).toBeCloseTo(-50.45 + 4.995 * 5, 9);
  });

  it('reads a stored state without dust as none', () => {
    const bot = multigridBot({ alloc: [1], tp: [50] });
    const { dustQty: _, ...account } = bot.account;
    const stored = JSON.parse(JSON.stringify({ ...bot, account }));
    const r = step(stored, { price: 100, timeMs: 1 }, TEST_RULES);
    const s = applyFill(r.state, {
      seq: 1,
      side: 'buy',
      price: 100,
      qty: '10',
      quote: '1000',
      fee: '0.01',
      feeAsset: 'base',
      timeMs: 1,
    });
    const sell = step(stopAndSell(s), { price: 100, timeMs: 2 }, TEST_RULES).intents[0] as SellLots;
    expect(sell.qty).toBe('9.99');
  });
});
