import { describe, expect, it } from 'vitest';
import { carryRange } from './carry-range';

describe('a range picked on an earlier period, carried onto the latest suggestion', () => {
  it('keeps each bound’s ratio to its period’s suggested bound, on the tick, and the grid count', () => {
    // Suggested 200–214 on the earlier period and 176–212 on the last one; the sweep picked 203–218, 12 grids.
    const carried = carryRange(
      { lower: 203, upper: 218, grids: 12 },
      { lower: 200, upper: 214 },
      { lower: 176, upper: 212 },
      '0.01',
    );
    // 203 × 176 / 200 = 178.64; 218 × 212 / 214 = 215.9626… → 215.96.
    expect(carried).toEqual({ lower: 178.64, upper: 215.96, grids: 12 });
  });

  it('writes the pick as it is when the two periods suggested the same range', () => {
    const same = { lower: 1.234, upper: 1.5 };
    expect(carryRange({ lower: 1.25, upper: 1.52, grids: 30 }, same, same, '0.001')).toEqual({
      lower: 1.25,
      upper: 1.52,
      grids: 30,
    });
  });
});
