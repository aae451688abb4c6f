import { type Period, RangePeriodsBacktest } from './range-periods-backtest';

export interface RangeSuggestionBacktestProps {
  symbol: string;
  category: 'spot' | 'future';
  investment: number;
  leverage: number | null;
  /** A range strategy in the stored format (docs/trading-rules.md §2.6). */
  strategy: unknown;
  /** The period the range was picked from (in-sample). */
  fit: Period;
  /** The period after it, which the pick never saw (out-of-sample). */
  test: Period;
}

/**
 * A suggested range tried on history in the backtest worker: on the period it was picked from, then on the next
 * one, which it never saw.
 */
export default function RangeSuggestionBacktest({ fit, test, ...subject }: RangeSuggestionBacktestProps) {
  return (
    <RangePeriodsBacktest
      {...subject}
      periods={[
        { label: 'Picked from (in-sample)', period: fit },
        { label: 'Next period (out-of-sample)', period: test },
      ]}
      heading="The same rule on the period before, backtested on hourly candles, fees included:"
      caption="Suggestion backtest"
      testId="range-suggestion-backtest"
    />
  );
}
