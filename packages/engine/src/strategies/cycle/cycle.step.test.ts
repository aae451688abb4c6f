/** Hand-worked examples of docs/trading-rules.md §2.4 (step 0.001, fee 0.1 %). */
import { describe, expect, it } from 'vitest';
import { stop, stopAndSell } from '../../commands';
import { intentSummary, runPrices, TEST_FUTURE_RULES } from '../../testing/harness';
import { type CycleParams, createCycle, cycleProgress } from './cycle.state';

const cycle = (params: Partial<CycleParams>) =>
  createCycle({
    params: { buyPrice: 100, sellPrice: 110, stopLoss: null, cycles: 2, amount: 100, ...params },
    market: 'spot',
    startTimeMs: 0,
  });

describe('Cycle (docs/trading-rules.md §2.4)', () => {
  it('buys at the buy price, sells at the sell price, and completes after no_of_cycle cycles', () => {
    // Buy 100 USDT at 100 → qty 1, fee 0.1. Sell at 110: 110 − 0.11 − 100 − 0.1 = 9.79 per cycle.
    const { state, log } = runPrices(cycle({}), [105, 100, 109, 110, 100, 110, 100]);
    expect(intentSummary(log)).toEqual([
      '@100 buy g1 1',
      '@110 sell g1 1 take_profit',
      '@100 buy g1 1',
      '@110 sell g1 1 take_profit',
    ]);
    expect(log.map((t) => t.state.status)).toEqual([
      'WaitBuy',
      'Holding',
      'Holding',
      'WaitBuy',
      'Holding',
      'Completed',
      'Completed',
    ]);
    expect(log.map((t) => cycleProgress(t.state))).toEqual([0, 0.25, 0.25, 0.5, 0.75, 1, 1]);
    expect(state).toMatchObject({ cyclesCompleted: 2, stopReason: 'completed' });
    expect(state.account.bookedProfit).toBe(19.58);
  });

  it('sells and stops at the stop loss while holding', () => {
    // Buy 1 at 100; at 90 ≤ stop loss: 90 − 0.09 − 100 − 0.1 = −10.19; stopped for good.
    const { state, log } = runPrices(cycle({ stopLoss: 90 }), [100, 95, 90, 100, 110]);
    expect(intentSummary(log)).toEqual(['@100 buy g1 1', '@90 sell g1 1 stoploss']);
    expect(state).toMatchObject({ status: 'Stopped', stopReason: 'stoploss', cyclesCompleted: 0 });
    expect(state.account.bookedProfit).toBe(-10.19);
  });

  it('without a stop loss keeps holding however far the price falls', () => {
    const { state, log } = runPrices(cycle({}), [100, 50, 10]);
    expect(intentSummary(log)).toEqual(['@100 buy g1 1']);
    expect(state.status).toBe('Holding');
  });

  it('stops without selling, or stops and sells on the next tick', () => {
    const held = runPrices(cycle({}), [100]).state;
    expect(stop(held)).toMatchObject({ status: 'Stopped', lots: [{ qty: 1 }] });
    const { state, log } = runPrices(stopAndSell(held), [104]);
    expect(intentSummary(log)).toEqual(['@104 sell g1 1 manual_sell']);
    expect(state).toMatchObject({ status: 'Stopped', stopReason: 'manual_sell', lots: [] });
  });

  it('on futures buys notional amount × leverage', () => {
    const c = createCycle({
      params: { buyPrice: 100, sellPrice: 110, stopLoss: null, cycles: 1, amount: 100 },
      market: 'future',
      leverage: 3,
      startTimeMs: 0,
    });
    const { log } = runPrices(c, [100], TEST_FUTURE_RULES, { feePct: 0.05 });
    expect(log[0]?.state.lots[0]).toMatchObject({ qty: 3, quote: 300, margin: 100, fee: 0.15 });
  });

  it('on futures books the liquidation at its level unless the exchange reports liquidations', () => {
    // 3× at 100: liq = (300 − 100) / (3 × 0.995) ≈ 67.0; 60 is below it.
    const futures = () =>
      createCycle({
        params: { buyPrice: 100, sellPrice: 110, stopLoss: null, cycles: 1, amount: 100 },
        market: 'future',
        leverage: 3,
        startTimeMs: 0,
      });
    const paper = runPrices(futures(), [100, 60], TEST_FUTURE_RULES, { feePct: 0.05 });
    expect(paper.state).toMatchObject({ status: 'Stopped', stopReason: 'liquidated' });
    const binance = { ...TEST_FUTURE_RULES, liquidationFromExchange: true };
    const followed = runPrices(futures(), [100, 60], binance, { feePct: 0.05 });
    expect(intentSummary(followed.log)).toHaveLength(1);
    expect(followed.state).toMatchObject({ status: 'Holding', lots: [{ qty: 3 }] });
  });
});
