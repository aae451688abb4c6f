import { describe, expect, it } from 'vitest';
import { candlesText, durationText, periodChoices, sourceText } from './history-period';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const start = Date.UTC(2025, 2, 5); // 2025-03-05 00:00 UTC

describe('the backtest period', () => {
  it('offers every fixed period a long real history covers, and nothing more', () => {
    const span = { fromMs: start - 400 * DAY, toMs: start };
    expect(periodChoices(span, '1h')).toEqual([
      { days: 30, label: '30 days' },
      { days: 90, label: '90 days' },
      { days: 180, label: '180 days' },
      { days: 365, label: '365 days' },
    ]);
  });

  it('offers the whole span, named by its length, when the source has less than the fixed periods', () => {
    // 1,000 recorded 15-minute candles: 250 hours, ten and a bit days.
    const quarter = { fromMs: start, toMs: start + 1000 * 15 * 60_000 };
    expect(periodChoices(quarter, '15m')).toEqual([{ days: 250 / 24, label: 'All 10 days' }]);
    // 1,000 recorded 1-minute candles: 16 h 40 min.
    const minute = { fromMs: start, toMs: start + 1000 * 60_000 };
    expect(periodChoices(minute, '1m')).toEqual([{ days: 1000 / 1440, label: 'All 16 hours' }]);
  });

  it('leaves out periods one request cannot carry (200,000 candles) and a whole span equal to a fixed one', () => {
    // 100 days of 1-minute candles: 180 days would be 259,200 candles.
    expect(periodChoices({ fromMs: start, toMs: start + 100 * DAY }, '1m')).toEqual([
      { days: 30, label: '30 days' },
      { days: 90, label: '90 days' },
    ]);
    // Exactly 30 days: the fixed choice is the whole span.
    expect(periodChoices({ fromMs: start, toMs: start + 30 * DAY }, '1m')).toEqual([
      { days: 30, label: '30 days' },
    ]);
    // 31 days: 30, then all 31 (less than 90, the longest 1-minute choice).
    expect(periodChoices({ fromMs: start, toMs: start + 31 * DAY }, '1m')).toEqual([
      { days: 30, label: '30 days' },
      { days: 31, label: 'All 31 days' },
    ]);
  });

  it('names the first and last candle of the period in UTC, with their count', () => {
    expect(candlesText({ fromMs: start, toMs: start + 90 * DAY }, '1h')).toBe(
      '2,160 candles: 2025-03-05 00:00 to 2025-06-02 23:00 UTC',
    );
    expect(candlesText({ fromMs: start, toMs: start + 1000 * 60_000 }, '1m')).toBe(
      '1,000 candles: 2025-03-05 00:00 to 2025-03-05 16:39 UTC',
    );
  });

  it('says whether the candles are real Binance history or the simulated market', () => {
    expect(sourceText('embedded')).toEqual({
      real: true,
      text: 'Real Binance price history (hourly candles shipped with the app)',
    });
    expect(sourceText('binance').real).toBe(true);
    expect(sourceText('replay').real).toBe(true);
    expect(sourceText('sim')).toEqual({
      real: false,
      text: "Simulated prices: the candles this app's simulated market recorded, not real history",
    });
  });

  it('writes a length in days, hours or minutes', () => {
    expect(durationText(90 * DAY)).toBe('90 days');
    expect(durationText(47 * HOUR)).toBe('47 hours');
    expect(durationText(90 * 60_000)).toBe('90 minutes');
  });
});
