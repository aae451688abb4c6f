import { describe, expect, it } from 'vitest';
import { parseCycle } from './cycle/parse-cycle';
import { parseStrategy } from './parse-strategy';

const stored = {
  type: 'multigrid',
  strategy_name: 'BTC ladder',
  No_of_order: 3,
  status: 'active',
  allotted_amount_percentage_per_order: [0.5, '0.3', 0.2],
  buy_percentage: [1.2, 1.5],
  buy_percentage_up: [0.2, 0.2],
  takeprofit_percentage: [1.2, 1.2, 1.3],
  takeprofit_percentage_down: [0.2, 0.2, 0.1],
};

describe('parseStrategy (docs/spec/01-core-screens.md §3 stored format)', () => {
  it('normalises a Multigrid strategy to per-grid arrays (grid 1 buys at market)', () => {
    expect(parseStrategy(stored)).toEqual({
      ok: true,
      value: {
        type: 'multigrid',
        name: 'BTC ladder',
        grids: 3,
        alloc: [0.5, 0.3, 0.2],
        buyPct: [0, 1.2, 1.5],
        buyUpPct: [0, 0.2, 0.2],
        tpPct: [1.2, 1.2, 1.3],
        tpDownPct: [0.2, 0.2, 0.1],
      },
    });
  });

  it('reads a Scalping strategy with a single take-profit', () => {
    const r = parseStrategy({
      type: 'scalping',
      No_of_order: 2,
      allotted_amount_percentage_per_order: [0.5, 0.5],
      buy_percentage: [2],
      takeprofit_percentage: '3',
    });
    expect(r).toEqual({
      ok: true,
      value: { type: 'scalping', name: '', grids: 2, alloc: [0.5, 0.5], buyPct: [0, 2], tpPct: 3 },
    });
  });

  it.each([
    [{ ...stored, type: 'grid' }, 'type must be "multigrid" or "scalping", is "grid"'],
    [{ ...stored, No_of_order: 51 }, 'No_of_order must be an integer from 1 to 50 for multigrid, is 51'],
    [
      { ...stored, type: 'scalping', No_of_order: 11 },
      'No_of_order must be an integer from 1 to 10 for scalping, is 11',
    ],
    [
      { ...stored, allotted_amount_percentage_per_order: [0.5, 0.3, 0.3] },
      'allotted_amount_percentage_per_order must sum to 1 (fractions), sums to 1.1',
    ],
    [{ ...stored, buy_percentage: [1, 1, 1] }, 'buy_percentage must have 2 values, has 3'],
    [
      { ...stored, takeprofit_percentage: [1, 'x', 1] },
      'takeprofit_percentage[1] must be a number ≥ 0, is x',
    ],
    [{ ...stored, buy_percentage_up: undefined }, 'buy_percentage_up must be a list of 2 numbers'],
  ])('rejects %# with a clear message', (input, message) => {
    const r = parseStrategy(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toContain(message);
  });
});

describe('parseCycle', () => {
  it('reads stored names and start-payload names', () => {
    expect(
      parseCycle({ buy_price: 95, sell_price: '105', stop_loss: null, no_of_cycle: 3, amount: 100 }),
    ).toMatchObject({
      ok: true,
      value: { params: { buyPrice: 95, sellPrice: 105, stopLoss: null, cycles: 3, amount: 100 } },
    });
    expect(
      parseCycle({
        priceReachAt: 95,
        sellPriceAt: 105,
        stopLossAt: 80,
        cycleCount: 1,
        category: 'Future',
        leverage: 3,
      }),
    ).toMatchObject({
      ok: true,
      value: { params: { stopLoss: 80, amount: 0 }, category: 'future', leverage: 3 },
    });
  });

  it('lists what is missing', () => {
    expect(parseCycle({ sell_price: 1 })).toEqual({
      ok: false,
      errors: [
        'buy_price must be a number > 0, is undefined',
        'no_of_cycle must be a number > 0, is undefined',
      ],
    });
  });
});
