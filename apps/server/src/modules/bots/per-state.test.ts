import { describe, expect, it } from 'vitest';
import { perState } from './per-state';

describe('values derived from a stored engine state', () => {
  const counted = () => {
    let calls = 0;
    const labelOf = perState(
      (row: { engineState: { qty: number } | null; investment: string }) => {
        calls += 1;
        return `${row.engineState?.qty ?? 0} of ${row.investment}`;
      },
      (row) => [row.investment],
    );
    return { labelOf, calls: () => calls };
  };

  it('computes once per state object while the row’s other inputs stay the same', () => {
    const { labelOf, calls } = counted();
    const state = { qty: 2 };
    expect(labelOf({ engineState: state, investment: '100' })).toBe('2 of 100');
    expect(labelOf({ engineState: state, investment: '100' })).toBe('2 of 100');
    expect(calls()).toBe(1);
  });

  it('computes anew for a new state object (a new version), even with equal contents', () => {
    const { labelOf, calls } = counted();
    labelOf({ engineState: { qty: 2 }, investment: '100' });
    expect(labelOf({ engineState: { qty: 3 }, investment: '100' })).toBe('3 of 100');
    labelOf({ engineState: { qty: 3 }, investment: '100' });
    expect(calls()).toBe(3);
  });

  it('computes anew when another input of the row changed (a top-up of the investment)', () => {
    const { labelOf, calls } = counted();
    const state = { qty: 2 };
    labelOf({ engineState: state, investment: '100' });
    expect(labelOf({ engineState: state, investment: '150' })).toBe('2 of 150');
    expect(labelOf({ engineState: state, investment: '150' })).toBe('2 of 150');
    expect(calls()).toBe(2);
  });

  it('keeps nothing for a row without a state', () => {
    const { labelOf, calls } = counted();
    labelOf({ engineState: null, investment: '100' });
    labelOf({ engineState: null, investment: '100' });
    expect(calls()).toBe(2);
  });
});
