import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatDay,
  formatNumber,
  formatPct,
  formatPrice,
  formatQty,
  formatTime,
  formatUsd,
} from './format';

// The formatters write what Intl writes (en-US numbers, en-GB dates) without loading Intl's locale data.
const intlFixed = (digits: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const intlQty = new Intl.NumberFormat('en-US', { maximumFractionDigits: 8 });
const intlMinutes = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});
const intlSeconds = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

// Prices, balances and quantities as they come: any size, plus the decimals where rounding is decided.
const amount = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -1e7, max: 1e7, noNaN: true }),
  fc
    .tuple(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.integer({ min: 0, max: 8 }))
    .map(([units, places]) => units / 10 ** places),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => n / 1000 + 0.0005),
);

describe('number formats', () => {
  it('write a price as Intl does, with the decimals its size needs', () => {
    fc.assert(
      fc.property(amount, (value) => {
        const abs = Math.abs(value);
        const digits = abs >= 100 ? 2 : abs >= 1 ? 4 : abs >= 0.01 ? 5 : 8;
        expect(formatPrice(value)).toBe(intlFixed(digits).format(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('write dollars, percentages and quantities as Intl does', () => {
    fc.assert(
      fc.property(amount, (value) => {
        expect(formatUsd(value)).toBe(`${value < 0 ? '-' : ''}$${intlFixed(2).format(Math.abs(value))}`);
        expect(formatPct(value)).toBe(`${intlFixed(2).format(value)}%`);
        expect(formatQty(value)).toBe(intlQty.format(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('write counts and amounts with a range of decimals as Intl does', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 }), (value, a, b) => {
        const [min, max] = a <= b ? [a, b] : [b, a];
        const intl = new Intl.NumberFormat('en-US', {
          minimumFractionDigits: min,
          maximumFractionDigits: max,
        });
        expect(formatNumber(value, max, min)).toBe(intl.format(value));
      }),
      { numRuns: 3000 },
    );
    expect(formatNumber(1234.5)).toBe('1,234.5');
    expect(formatNumber(0.1, 8, 2)).toBe('0.10');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('—');
  });

  it('round from the number as written, halves away from zero', () => {
    expect(formatUsd(1.005)).toBe('$1.01'); // toFixed would say 1.00: 1.005 is stored as 1.00499…
    expect(formatUsd(-2.675)).toBe('-$2.68');
    expect(formatUsd(999.995)).toBe('$1,000.00');
    expect(formatPrice(0.125)).toBe('0.12500');
    expect(formatPrice(97123.455)).toBe('97,123.46');
    expect(formatQty(0.000000004)).toBe('0');
    expect(formatQty(-0.000000004)).toBe('-0');
    expect(formatQty(1234567.1)).toBe('1,234,567.1');
    expect(formatQty('0.10000000')).toBe('0.1');
    expect(formatPct('12.5')).toBe('12.50%');
  });

  it('say "—" when there is no number', () => {
    expect(formatPrice(Number.NaN)).toBe('—');
    expect(formatUsd('')).toBe('—');
    expect(formatUsd(null)).toBe('—');
    expect(formatQty(undefined)).toBe('—');
    expect(formatPct('abc')).toBe('—');
  });
});

describe('date formats', () => {
  it("write a date and time as Intl's en-GB does, in the browser's time zone", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
        (date) => {
          expect(formatDate(date.toISOString())).toBe(intlMinutes.format(date));
          expect(formatDateTime(date.toISOString())).toBe(intlSeconds.format(date));
          expect(`${formatDay(date)}, ${formatTime(date)}`).toBe(intlMinutes.format(date));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('say "—" when missing and give back text that is no date', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDateTime('')).toBe('—');
    expect(formatDate('soon')).toBe('soon');
  });
});
