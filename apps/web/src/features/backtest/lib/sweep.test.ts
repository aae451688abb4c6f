import { parseStrategy } from '@gridbot/engine';
import { describe, expect, it } from 'vitest';
import { MAX_SWEEP, steps, strategyWith, sweepCells } from './sweep';

const multigrid = {
  type: 'multigrid' as const,
  No_of_order: 3,
  allotted_amount_percentage_per_order: [0.4, 0.3, 0.3],
  buy_percentage: [1, 1],
  buy_percentage_up: [0, 0],
  takeprofit_percentage: [1, 1, 1],
  takeprofit_percentage_down: [0, 0, 0],
};

describe('sweep', () => {
  it('spaces the values of an axis evenly', () => {
    expect(steps(0.5, 5, 10)).toEqual([0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5]);
    expect(steps(1, 1, 5)).toEqual([1]);
  });

  it('makes every combination, at most 100', () => {
    expect(sweepCells({ buyPct: steps(1, 2, 10), takeProfitPct: steps(1, 2, 10) })).toHaveLength(100);
    expect(sweepCells({ buyPct: [1, 2], takeProfitPct: [3], trailPct: [0, 0.5] })).toEqual([
      { buyPct: 1, takeProfitPct: 3, trailPct: 0 },
      { buyPct: 1, takeProfitPct: 3, trailPct: 0.5 },
      { buyPct: 2, takeProfitPct: 3, trailPct: 0 },
      { buyPct: 2, takeProfitPct: 3, trailPct: 0.5 },
    ]);
    expect(() => sweepCells({ buyPct: steps(1, 2, 11), takeProfitPct: steps(1, 2, 10) })).toThrow(
      String(MAX_SWEEP),
    );
  });

  it('writes a cell into every grid of a strategy the engine accepts (grid 1 keeps buying at the market)', () => {
    const s = strategyWith(multigrid, { buyPct: 2.5, takeProfitPct: 1.5, trailPct: 0.25 });
    const parsed = parseStrategy(s);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.buyPct).toEqual([0, 2.5, 2.5]);
    expect(parsed.value.tpPct).toEqual([1.5, 1.5, 1.5]);
    expect(parsed.value.type === 'multigrid' && parsed.value.buyUpPct).toEqual([0, 0.25, 0.25]);
    const scalping = strategyWith(
      {
        type: 'scalping',
        No_of_order: 2,
        allotted_amount_percentage_per_order: [0.5, 0.5],
        buy_percentage: [1],
        takeprofit_percentage: 3,
      },
      { buyPct: 0.5, takeProfitPct: 2 },
    );
    expect(scalping).toMatchObject({ buy_percentage: [0.5], takeprofit_percentage: 2 });
    expect(parseStrategy(scalping).ok).toBe(true);
  });
});
