import { describe, expect, it } from 'vitest';
import { gridCounts, rangeCells } from './range-sweep';

describe('the range sweep', () => {
  it('takes half to one and a half times the grids, rounded, within 2–200, without repeats', () => {
    // 13 × 0.5 = 6.5 → 7, × 0.75 = 9.75 → 10, 13, × 1.25 = 16.25 → 16, × 1.5 = 19.5 → 20.
    expect(gridCounts(13)).toEqual([7, 10, 13, 16, 20]);
    // 2 × 0.5 = 1 → 2, 1.5 → 2, 2, 2.5 → 3, 3.
    expect(gridCounts(2)).toEqual([2, 3]);
    expect(gridCounts(180)).toEqual([90, 135, 180, 200]);
  });

  it('widens and narrows the range about its middle, on the tick', () => {
    // 90,800–97,550: middle 94,175, half 3,375; × 0.6 = 2,025 → 92,150–96,200; × 1.4 = 4,725 → 89,450–98,900.
    const cells = rangeCells({ lower: 90800, upper: 97550, grids: 13 }, '0.01');
    expect(cells).toHaveLength(25);
    const bands = [...new Set(cells.map((c) => `${c.lower}-${c.upper}`))];
    expect(bands).toEqual(['92150-96200', '91475-96875', '90800-97550', '90125-98225', '89450-98900']);
    expect(cells[0]).toEqual({ row: 0, col: 0, lower: 92150, upper: 96200, grids: 7 });
    expect(cells[24]).toEqual({ row: 4, col: 4, lower: 89450, upper: 98900, grids: 20 });
  });

  it('leaves out a width whose lower would reach zero', () => {
    // 10–100: middle 55, half 45; × 1.4 = 63 would put lower at −8.
    const cells = rangeCells({ lower: 10, upper: 100, grids: 4 }, '0.01');
    expect([...new Set(cells.map((c) => c.row))]).toEqual([0, 1, 2, 3]);
    expect(cells.find((c) => c.row === 3)).toMatchObject({ lower: 1, upper: 109 });
  });
});
