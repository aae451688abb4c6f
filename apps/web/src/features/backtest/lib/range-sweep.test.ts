import { describe, expect, it } from 'vitest';
import { axesAround, gridSteps, priceSteps, rangeCells, rangeRows } from './range-sweep';

describe('the range sweep', () => {
  it('starts around the grid: lower and upper a quarter of the width either side, half to 1.5 × the grids', () => {
    // 90,000–98,000 is 8,000 wide: a quarter is 2,000.
    expect(axesAround({ lower: 90000, upper: 98000, grids: 10 })).toEqual({
      lowerFrom: 88000,
      lowerTo: 92000,
      upperFrom: 96000,
      upperTo: 100000,
      gridsFrom: 5,
      gridsTo: 15,
    });
    // 10–100: a quarter is 22.5, which would put the lower at −12.5; it stops at half the lower, 5.
    expect(axesAround({ lower: 10, upper: 100, grids: 3 })).toMatchObject({ lowerFrom: 5, gridsFrom: 2 });
  });

  it('takes four prices per bound on the tick and up to six whole grid counts within 2–200', () => {
    // 4,000 / 3 = 1,333.33…: 89,333.33 and 90,666.67 on a 0.01 tick.
    expect(priceSteps(88000, 92000, 4, '0.01')).toEqual([88000, 89333.33, 90666.67, 92000]);
    expect(priceSteps(1.5, 1.5, 4, '0.0001')).toEqual([1.5]);
    // 5 to 15 in five steps of 2; 2 to 4 has three counts; 150 to 250 stops at 200: steps of 10.
    expect(gridSteps(5, 15)).toEqual([5, 7, 9, 11, 13, 15]);
    expect(gridSteps(2, 4)).toEqual([2, 3, 4]);
    expect(gridSteps(150, 250)).toEqual([150, 160, 170, 180, 190, 200]);
  });

  it('pairs every lower with every upper above it, each with every grid count', () => {
    const axes = { lowerFrom: 100, lowerTo: 130, upperFrom: 110, upperTo: 140, gridsFrom: 2, gridsTo: 4 };
    // Lowers 100, 110, 120, 130 and uppers 110, 120, 130, 140: 4 + 3 + 2 + 1 pairs with the upper above.
    const rows = rangeRows(axes, '0.01');
    expect(rows).toHaveLength(10);
    expect(rows.slice(0, 5)).toEqual([
      { lower: 100, upper: 110 },
      { lower: 100, upper: 120 },
      { lower: 100, upper: 130 },
      { lower: 100, upper: 140 },
      { lower: 110, upper: 120 },
    ]);
    const cells = rangeCells(axes, '0.01');
    expect(cells).toHaveLength(30);
    expect(cells[4]).toEqual({ row: 1, col: 1, lower: 100, upper: 120, grids: 3 });
    // Around a grid: 4 × 4 ranges × 6 counts = 96 backtests, within the 100 a sweep may run.
    expect(rangeCells(axesAround({ lower: 90000, upper: 98000, grids: 10 }), '0.01')).toHaveLength(96);
  });
});
