/** A period of candles, from ≤ open time < to (Unix ms). */
export interface Period {
  fromMs: number;
  toMs: number;
}

/**
 * What the suggestion's backtest runs: the range suggested from `fit` (the period before the last one) run
 * on `fit` itself and on `test`, the last period, which the suggestion never saw (out-of-sample).
 */
export interface GridSuggestionBacktest {
  symbol: string;
  category: 'spot' | 'future';
  investment: number;
  leverage: number | null;
  strategy: {
    type: 'range';
    lower: number;
    upper: number;
    grids: number;
    mode: 'arithmetic' | 'geometric';
    direction: 'long' | 'short' | 'neutral';
    leverage: number;
  };
  fit: Period;
  test: Period;
}

const HOUR_MS = 3_600_000;

/**
 * The last whole hours before `nowMs` cut into two periods of `lengthMs`: `test` ends at the last whole hour,
 * `fit` is the one before it. Whole hours, so the hourly candles of both are complete.
 */
export function suggestionPeriods(nowMs: number, lengthMs: number): { fit: Period; test: Period } {
  const end = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  return {
    fit: { fromMs: end - 2 * lengthMs, toMs: end - lengthMs },
    test: { fromMs: end - lengthMs, toMs: end },
  };
}
