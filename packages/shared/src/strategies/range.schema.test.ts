import { describe, expect, it } from 'vitest';
import { rangeStrategySchema } from './range.schema';

const base = { type: 'range', lower: 90, upper: 110, grids: 4 };
const issues = (body: unknown) => {
  const res = rangeStrategySchema.safeParse(body);
  return res.success ? [] : res.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('range strategy schema (docs/trading-rules.md §2.6)', () => {
  it('fills the defaults: arithmetic, sell on stop, no trailing, long, leverage 1', () => {
    expect(rangeStrategySchema.parse({ ...base, lower: '90', grids: '4' })).toEqual({
      ...base,
      mode: 'arithmetic',
      sellOnStop: true,
      trailingUp: false,
      trailingDown: false,
      direction: 'long',
      leverage: 1,
    });
  });

  it('takes 2 to 200 grids', () => {
    expect(issues({ ...base, grids: 2 })).toEqual([]);
    expect(issues({ ...base, grids: 200 })).toEqual([]);
    expect(issues({ ...base, grids: 1 })).toEqual(['grids: grids must be 2 to 200']);
    expect(issues({ ...base, grids: 201 })).toEqual(['grids: grids must be 2 to 200']);
  });

  it('wants lower < upper, stop-loss below the range, take-profit and trailing limits beyond it', () => {
    expect(issues({ ...base, upper: 90 })).toEqual(['upper: upper must be above lower']);
    expect(issues({ ...base, stopLoss: 95 })).toEqual(['stopLoss: stopLoss must be below lower']);
    expect(issues({ ...base, takeProfit: 105 })).toEqual(['takeProfit: takeProfit must be above upper']);
    expect(issues({ ...base, trailingUpLimit: 100 })).toEqual([
      'trailingUpLimit: trailingUpLimit must be above upper',
    ]);
    expect(issues({ ...base, stopLoss: 80, takeProfit: 120, trigger: 95, trailingUpLimit: 150 })).toEqual([]);
  });

  it('refuses another type or an unknown mode', () => {
    expect(issues({ ...base, type: 'multigrid' })).toHaveLength(1);
    expect(issues({ ...base, mode: 'log' })).toHaveLength(1);
  });
});
