import { readNumberText } from '@gridbot/shared';
import { useEffect, useState } from 'react';
import { NumberInput } from '../../../components/ui/number-input';
import { type LabelledPeriod, RangePeriodsBacktest } from './range-periods-backtest';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const TYPING_PAUSE_MS = 400;

export interface GridCopyBacktestProps {
  symbol: string;
  category: 'spot' | 'future';
  leverage: number | null;
  /** The grid's parameters as Copy BOTs shows them (docs/trading-rules.md §2.6), without `type`. */
  strategy: Record<string, unknown>;
  /** Now, for the periods' end (a test's fixed clock). */
  nowMs?: number;
}

/**
 * The last 7 and 30 days up to the last whole hour, so the hourly candles of both are complete; the longer one
 * is fetched once and holds the shorter.
 */
export function recentPeriods(nowMs: number): LabelledPeriod[] {
  const end = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  return [
    { label: 'Last 7 days', period: { fromMs: end - 7 * DAY_MS, toMs: end } },
    { label: 'Last 30 days', period: { fromMs: end - 30 * DAY_MS, toMs: end } },
  ];
}

/**
 * A Copy BOTs grid's range and settings backtested on its pair's last 7 and 30 days, with the amount the member
 * types: what the copy would have done, before it opens Start Grid.
 */
export default function GridCopyBacktest({
  symbol,
  category,
  leverage,
  strategy,
  nowMs,
}: GridCopyBacktestProps) {
  const [amountText, setAmountText] = useState('1000');
  // The amount the backtest runs with: the typed one once typing paused, so "1500" runs once, not four times.
  const [typed, setTyped] = useState(amountText);
  useEffect(() => {
    const timer = window.setTimeout(() => setTyped(amountText), TYPING_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [amountText]);
  const amount = readNumberText(typed);
  const valid = typeof amount === 'number' && amount > 0;
  const [periods] = useState(() => recentPeriods(nowMs ?? Date.now()));
  return (
    // No frame of its own: inside the dialog at 390 px the table's five columns then fit without scrolling.
    <div className="space-y-3 text-sm">
      <div className="max-w-[12rem]">
        <NumberInput
          label="Amount (USDT)"
          value={amountText}
          onChange={(e) => setAmountText(e.target.value)}
          error={valid ? undefined : 'Enter an amount above 0 to backtest the grid with it.'}
        />
      </div>
      {valid ? (
        <RangePeriodsBacktest
          symbol={symbol}
          category={category}
          investment={amount}
          leverage={leverage}
          strategy={{ ...strategy, type: 'range' }}
          periods={periods}
          heading="This grid's range and settings on the pair's recent history, backtested on hourly candles, fees included:"
          caption="Grid backtest"
          testId="grid-copy-backtest"
        />
      ) : null}
    </div>
  );
}
