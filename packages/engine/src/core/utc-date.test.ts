import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utcDateKey, utcIso } from './utc-date';

describe('UTC dates without a clock', () => {
  it('agree with Date for any time from 1970 to 2200', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7_258_118_400_000 }), (ms) => {
        expect(utcIso(ms)).toBe(new Date(ms).toISOString());
        expect(utcDateKey(ms)).toBe(new Date(ms).toISOString().slice(0, 10));
      }),
    );
  });
});
