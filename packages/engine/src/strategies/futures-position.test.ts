/**
 * Futures positions as the exchange keeps them (docs/trading-rules.md §2.2): average entry, margin released in
 * proportion on a partial sell, maintenance from the symbol's leverage brackets. The expected prices
 * are the formula (Q × E − M − cum) / (Q × (1 − m)) worked by hand, rounded up to 8 decimals; the
 * paper exchange's test of the same fills expects the very same figures.
 */
import { findMaintBrackets } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { intentSummary, runPrices, TEST_FUTURE_RULES } from '../testing/harness';
import { multigridBot } from '../testing/strategies';
import { createCycle } from './cycle/cycle.state';

const BTC = findMaintBrackets('BTCUSDT');
const RULES = { ...TEST_FUTURE_RULES, tickSize: '0.1' };

describe('futures liquidation price after buy, partial sell and rebuy (BTCUSDT brackets)', () => {
  it('follows the exchange position, not the lots still open', () => {
    // 1000 USDT margin on two grids of 500 at 10×; grid 2 buys 5 % below grid 1, each sells at +5 %.
    const bot = multigridBot(
      { alloc: [0.5, 0.5], buy: [5], tp: [5, 5] },
      { market: 'future', leverage: 10, maintBrackets: BTC },
    );
    const { log } = runPrices(bot, [60_000, 57_000, 59_850, 57_000], RULES, { feePct: 0.05 });
    expect(intentSummary(log)).toEqual([
      '@60000 buy g1 0.083',
      '@57000 buy g2 0.087',
      '@59850 sell g2 0.087 take_profit',
      '@57000 buy g2 0.087',
    ]);
    const liq = log.map((t) => t.state.account.liqPrice);
    // Buy: Q 0.083, cost 4980, margin 498: (4980 − 498) / (0.083 × 0.996).
    expect(liq[0]).toBe(54216.86746988);
    // Second buy: Q 0.17, cost 9939, margin 993.9 (bracket 1, notional < 50,000: 0.4 %, cum 0).
    expect(liq[1]).toBe(52829.55350816);
    // Partial sell of 0.087: E stays; cost 4852.57058824 and margin 485.25705882 remain.
    expect(log[2]?.state.account).toMatchObject({
      posQty: 0.083,
      posNotional: 4852.57058824,
      posMargin: 485.25705882,
    });
    expect(liq[2]).toBe(52829.55350825);
    // Rebuy: Q 0.17, cost 9811.57058824, margin 981.15705882 (the lots alone would give 52829.55…).
    expect(liq[3]).toBe(52152.21786807);
  });

  it('uses the bracket of the position notional (2 BTC at 50,000: 0.5 %, cum 50)', () => {
    const bot = multigridBot(
      { alloc: [1], tp: [50] },
      { market: 'future', leverage: 10, investment: 10_000 },
    );
    const withBrackets = { ...bot, maintBrackets: BTC };
    const { log } = runPrices(withBrackets, [50_000], RULES, { feePct: 0.05 });
    // (100000 − 10000 − 50) / (2 × 0.995) = 45201.005025125…
    expect(log[0]?.state.account.liqPrice).toBe(45201.00502513);
  });
});

describe('stoploss and liquidation under one tick: the higher level wins', () => {
  const shape = { alloc: [1], tp: [50] };
  it('a stoploss above the liquidation price sells at the stoploss', () => {
    const bot = multigridBot(shape, {
      market: 'future',
      leverage: 5,
      settings: { stoplossPrice: 90 },
    });
    // liq 80.40201006; one tick at 70 satisfies both.
    const { state, log } = runPrices(bot, [100, 70], RULES, { feePct: 0.05 });
    expect(intentSummary(log)).toEqual(['@100 buy g1 50', '@70 sell g1 50 stoploss']);
    expect(state.stopReason).toBe('stoploss');
  });

  it('a stoploss below the liquidation price never beats it: the margin is lost, nothing more', () => {
    const bot = multigridBot(shape, {
      market: 'future',
      leverage: 5,
      settings: { stoplossPrice: 60 },
    });
    const { state, log } = runPrices(bot, [100, 50], RULES, { feePct: 0.05 });
    expect(intentSummary(log)).toEqual(['@100 buy g1 50', '@50 sell g1 50 liquidated']);
    expect(state.stopReason).toBe('liquidated');
    expect(state.account.bookedProfit).toBe(-1002.5);
  });

  it('a cycle does the same', () => {
    const cycle = createCycle({
      params: { buyPrice: 100, sellPrice: 200, stopLoss: 60, cycles: 1, amount: 1000 },
      market: 'future',
      leverage: 5,
      startTimeMs: 0,
    });
    const { state, log } = runPrices(cycle, [100, 50], RULES, { feePct: 0.05 });
    expect(intentSummary(log)).toEqual(['@100 buy g1 50', '@50 sell g1 50 liquidated']);
    expect(state.stopReason).toBe('liquidated');
    const above = createCycle({
      params: { buyPrice: 100, sellPrice: 200, stopLoss: 90, cycles: 1, amount: 1000 },
      market: 'future',
      leverage: 5,
      startTimeMs: 0,
    });
    expect(runPrices(above, [100, 50], RULES, { feePct: 0.05 }).state.stopReason).toBe('stoploss');
  });
});
