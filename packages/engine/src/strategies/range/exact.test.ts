/** The range grid's exact number arithmetic gives the very numbers the decimal library gives. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Money, money } from '../../money';
import { decimalsOfNumber, exactAdd, exactCeilTo, exactFloorToStep, exactMul, exactSub } from './exact';

/** Numbers as money arrives: an integer of units and 0–10 decimals, some large, some tiny. */
const amount = fc
  .tuple(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 10 }))
  .map(([n, d]) =>
    Number(
      money(n)
        .dividedBy(10 ** d)
        .toString(),
    ),
  );
const positive = amount.map((x) => Math.abs(x)).filter((x) => x > 0);

describe('exact number arithmetic (range grid fills)', () => {
  it('reads the decimals of the shortest form', () => {
    expect([0, 5, 0.1, 246.715, 0.00000074, 69065.37, 0.1 + 0.2].map(decimalsOfNumber)).toEqual([
      0,
      0,
      1,
      3,
      8,
      2,
      -1, // 0.30000000000000004: 17 decimals, beyond the fast path
    ]);
  });

  it('adds, subtracts and multiplies as the decimal library does', () => {
    fc.assert(
      fc.property(amount, amount, (a, b) => {
        expect(exactAdd(a, b)).toBe(money(a).plus(b).toNumber());
        expect(exactSub(a, b)).toBe(money(a).minus(b).toNumber());
        expect(exactMul(a, b)).toBe(money(a).times(b).toNumber());
      }),
      { numRuns: 2000 },
    );
  });

  it('floors to a step and rounds up to decimals as the decimal library does', () => {
    const step = fc.constantFrom(1, 0.1, 0.01, 0.001, 0.00001, 0.00000001, 0.5, 0.25);
    fc.assert(
      fc.property(positive, step, fc.integer({ min: 0, max: 10 }), (x, s, d) => {
        expect(exactFloorToStep(x, s)).toBe(money(x).dividedToIntegerBy(s).times(s).toNumber());
        expect(exactCeilTo(x, d)).toBe(money(x).toDecimalPlaces(d, Money.ROUND_UP).toNumber());
      }),
      { numRuns: 2000 },
    );
  });
});
