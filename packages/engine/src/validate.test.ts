import { getMarketRules } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { strategyFrom } from './strategies/parse-strategy';
import { validateCycleStart, validateGridStart } from './validate';

const fiveGrids = strategyFrom({
  type: 'multigrid',
  No_of_order: 5,
  allotted_amount_percentage_per_order: [0.4, 0.3, 0.2, 0.05, 0.05],
  buy_percentage: [1, 1, 1, 1],
  buy_percentage_up: [0, 0, 0, 0],
  takeprofit_percentage: [1, 1, 1, 1, 1],
  takeprofit_percentage_down: [0, 0, 0, 0, 0],
});

describe('start validation: min notional (DESIGN §2.1)', () => {
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
});
