import { getMarketRules } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { strategyFrom } from './strategies/parse-strategy';
import { startCostWithFees, validateCycleStart, validateGridStart } from './validate';

const fiveGrids = strategyFrom({
  type: 'multigrid',
  No_of_order: 5,
  allotted_amount_percentage_per_order: [0.4, 0.3, 0.2, 0.05, 0.05],
  buy_percentage: [1, 1, 1, 1],
  buy_percentage_up: [0, 0, 0, 0],
  takeprofit_percentage: [1, 1, 1, 1, 1],
  takeprofit_percentage_down: [0, 0, 0, 0, 0],
});

describe('start validation: min notional (docs/trading-rules.md §2.1)', () => {
  it('names every grid whose planned quote is below the minimum', () => {
    // 80 × 0.05 = 4 USDT < 5 USDT for grids 4 and 5.
    expect(validateGridStart(fiveGrids, 80, getMarketRules('BTCUSDT', 'spot'))).toEqual([
      { grid: 4, message: 'Grid 4 order of 4 USDT is below the minimum order of 5 USDT for BTCUSDT spot' },
      { grid: 5, message: 'Grid 5 order of 4 USDT is below the minimum order of 5 USDT for BTCUSDT spot' },
    ]);
    expect(validateGridStart(fiveGrids, 100, getMarketRules('BTCUSDT', 'spot'))).toEqual([]);
  });

  it('checks futures on the notional (margin × leverage)', () => {
    // BTCUSDT futures minimum 100: 1000 × 0.05 × 3 = 150 passes; × 1 = 50 fails.
    const rules = getMarketRules('BTCUSDT', 'future');
    expect(validateGridStart(fiveGrids, 1000, rules, 3)).toEqual([]);
    expect(validateGridStart(fiveGrids, 1000, rules, 1)[0]?.message).toBe(
      'Grid 4 order of 50 USDT is below the minimum order of 100 USDT for BTCUSDT futures',
    );
  });

  it('checks a cycle amount and its prices', () => {
    const rules = getMarketRules('ETHUSDT', 'spot');
    const base = { buyPrice: 100, sellPrice: 110, stopLoss: null, cycles: 1, amount: 4 };
    expect(validateCycleStart(base, rules)).toEqual([
      { grid: 1, message: 'Cycle order of 4 USDT is below the minimum order of 5 USDT for ETHUSDT spot' },
    ]);
    expect(validateCycleStart({ ...base, amount: 50, stopLoss: 120 }, rules)[0]?.message).toBe(
      'Stop loss cannot be more than the buy price.',
    );
  });

  it('rounds each grid quantity to the step at the current price before comparing', () => {
    // 400 USDT on 10 grids at 3×: 40 × 3 = 120 USDT planned, above 100; at 84,701.4 that is
    // 0.001416… BTC, sent as 0.001 BTC = 84.7014 USDT: below the minimum, for every grid.
    const tenGrids = strategyFrom({
      type: 'multigrid',
      No_of_order: 10,
      allotted_amount_percentage_per_order: Array(10).fill(0.1),
      buy_percentage: Array(9).fill(1),
      buy_percentage_up: Array(9).fill(0),
      takeprofit_percentage: Array(10).fill(1),
      takeprofit_percentage_down: Array(10).fill(0),
    });
    const rules = getMarketRules('BTCUSDT', 'future');
    expect(validateGridStart(tenGrids, 400, rules, 3)).toEqual([]);
    const problems = validateGridStart(tenGrids, 400, rules, 3, 84_701.4);
    expect(problems).toHaveLength(10);
    expect(problems[0]).toEqual({
      grid: 1,
      message:
        'Grid 1 order of 84.7014 USDT (40 USDT margin × 3, 0.001 BTC after rounding to the step 0.001 at 84701.4 USDT) is below the minimum order of 100 USDT for BTCUSDT futures',
    });
    // At 5× the rounded order is 0.002 BTC = 169.40 USDT: it may start.
    expect(validateGridStart(tenGrids, 400, rules, 5, 84_701.4)).toEqual([]);
  });
});

describe('start cost with fees (docs/trading-rules.md §2.1)', () => {
  it('adds the buy fee of every futures grid to what the wallet must hold; spot fees come out of the coin', () => {
    expect(startCostWithFees(1000, 'spot', 1, 0.1)).toBe(1000);
    // Futures: 1000 margin, 3000 notional, 0.05 % of it.
    expect(startCostWithFees(1000, 'future', 3, 0.05)).toBe(1001.5);
  });
});
