/** Funding times and payments (docs/trading-rules.md §2.2), by hand-worked examples. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUNDING_INTERVAL_MS, fundingPayment, fundingTimeAtOrBefore, fundingTimesBetween } from './funding';

const at = (iso: string) => Date.parse(iso);

describe('funding times', () => {
  it('are 00:00, 08:00 and 16:00 UTC', () => {
    const times = fundingTimesBetween(at('2025-05-05T07:59:00Z'), at('2025-05-06T00:00:00Z'));
    expect(times.map((t) => new Date(t).toISOString())).toEqual([
      '2025-05-05T08:00:00.000Z',
      '2025-05-05T16:00:00.000Z',
      '2025-05-06T00:00:00.000Z',
    ]);
  });

  it("follow the symbol's interval: every 4 h or every hour where Binance funds so", () => {
    const hour = 3_600_000;
    const times = fundingTimesBetween(at('2025-05-05T03:59:00Z'), at('2025-05-05T12:00:00Z'), 4 * hour);
    expect(times.map((t) => new Date(t).toISOString().slice(11, 16))).toEqual(['04:00', '08:00', '12:00']);
    expect(fundingTimesBetween(at('2025-05-05T09:30:00Z'), at('2025-05-05T11:00:00Z'), hour)).toEqual([
      at('2025-05-05T10:00:00Z'),
      at('2025-05-05T11:00:00Z'),
    ]);
    expect(fundingTimeAtOrBefore(at('2025-05-05T07:59:59Z'), 4 * hour)).toBe(at('2025-05-05T04:00:00Z'));
  });

  it('count a funding time once: reached by the later tick, not again after it', () => {
    expect(fundingTimesBetween(at('2025-05-05T15:59:59Z'), at('2025-05-05T16:00:00Z'))).toEqual([
      at('2025-05-05T16:00:00Z'),
    ]);
    expect(fundingTimesBetween(at('2025-05-05T16:00:00Z'), at('2025-05-05T23:59:59Z'))).toEqual([]);
    expect(fundingTimesBetween(at('2025-05-05T17:00:00Z'), at('2025-05-05T16:30:00Z'))).toEqual([]);
  });

  it('before a time: the latest at or before it, from which the next one is due', () => {
    expect(fundingTimeAtOrBefore(at('2025-05-05T07:59:59Z'))).toBe(at('2025-05-05T00:00:00Z'));
    expect(fundingTimeAtOrBefore(at('2025-05-05T08:00:00Z'))).toBe(at('2025-05-05T08:00:00Z'));
    const settled = fundingTimeAtOrBefore(at('2025-05-05T09:30:00Z'));
    expect(fundingTimesBetween(settled, at('2025-05-06T00:00:30Z'))).toEqual([
      at('2025-05-05T16:00:00Z'),
      at('2025-05-06T00:00:00Z'),
    ]);
  });

  it('split any span into the same funding times (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4e12 }),
        fc.array(fc.integer({ min: 0, max: 3 * FUNDING_INTERVAL_MS })),
        (start, steps) => {
          let t = start;
          const pieces: number[] = [];
          for (const d of steps) {
            pieces.push(...fundingTimesBetween(t, t + d));
            t += d;
          }
          expect(pieces).toEqual(fundingTimesBetween(start, t));
        },
      ),
    );
  });
});

describe('funding payment of a long', () => {
  // 0.02 BTC at 95,000 = 1,900 USDT notional.
  it('pays the notional × a positive rate', () => {
    expect(fundingPayment(0.02, 95_000, 0.0001)).toBe(-0.19);
  });
  it('receives the notional × a negative rate', () => {
    expect(fundingPayment(0.02, 95_000, -0.00025)).toBe(0.475);
  });
  it('is nothing without a position or with a zero rate', () => {
    expect(fundingPayment(0, 95_000, 0.0001)).toBe(0);
    expect(Object.is(fundingPayment(0.02, 95_000, 0), 0)).toBe(true);
  });
});
