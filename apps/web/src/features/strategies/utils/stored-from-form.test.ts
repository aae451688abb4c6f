import { describe, expect, it } from 'vitest';
import { autoFillRows, emptyFormValues } from './form-values';
import { applySweepValues, storedFromForm } from './stored-from-form';

describe('the editor table as a stored strategy', () => {
  it('converts a valid unsaved table the way saving does, and nothing while it is invalid', () => {
    const values = { ...emptyFormValues('multigrid'), noOfGrids: '3', tableData: autoFillRows(3) };
    const stored = storedFromForm('multigrid', values);
    expect(stored).toMatchObject({ type: 'multigrid', No_of_order: 3 });
    expect(stored?.allotted_amount_percentage_per_order.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(storedFromForm('multigrid', { ...values, tableData: [] })).toBeNull();
  });

  it("writes a sweep's values into every grid (grid 1 keeps its market-price buy)", () => {
    const values = { ...emptyFormValues('multigrid'), noOfGrids: '3', tableData: autoFillRows(3) };
    const next = applySweepValues('multigrid', values, {
      buyPct: 1.5,
      takeProfitPct: 2,
      buyUpPct: 0.25,
      takeProfitDownPct: 0.25,
    });
    expect(next.tableData.map((r) => r.takeProfitPercentage)).toEqual(['2', '2', '2']);
    expect(next.tableData.slice(1).map((r) => [r.buyPercentage, r.buyPercentageUp])).toEqual([
      ['1.5', '0.25'],
      ['1.5', '0.25'],
    ]);
    expect(next.tableData[0]?.buyPercentage).toBe(values.tableData[0]?.buyPercentage);
    const scalping = {
      ...emptyFormValues('scalping'),
      noOfGrids: '2',
      tableData: autoFillRows(2),
      takeProfitPercentage: '3',
    };
    expect(
      applySweepValues('scalping', scalping, { buyPct: 1, takeProfitPct: 4.5 }).takeProfitPercentage,
    ).toBe('4.5');
    expect(
      storedFromForm('scalping', applySweepValues('scalping', scalping, { buyPct: 1, takeProfitPct: 4.5 })),
    ).toMatchObject({
      takeprofit_percentage: 4.5,
      buy_percentage: [1],
    });
  });
});
