import { describe, expect, it } from 'vitest';
import { groupBy } from './group-by';

describe('groupBy', () => {
  it('keeps each group in the order its items came, and the groups in the order their keys first came', () => {
    const rows = [
      { user: 'b', id: 1 },
      { user: 'a', id: 2 },
      { user: 'b', id: 3 },
    ];
    const groups = groupBy(rows, (row) => row.user);
    expect([...groups.keys()]).toEqual(['b', 'a']);
    expect(groups.get('b')?.map((row) => row.id)).toEqual([1, 3]);
    expect(groups.get('a')?.map((row) => row.id)).toEqual([2]);
  });
});
