import type { RangeBacktestSummary } from '@gridbot/engine';
import { clsx } from 'clsx';
import { useEffect, useState } from 'react';
import { formatDay, formatSignedUsd } from '../../../lib/format';
import { BacktestRunError, BacktestRunner, CancelledError } from '../lib/backtest-runner';

/** A period of candles, from ≤ open time < to (Unix ms). */
interface Period {
  fromMs: number;
  toMs: number;
}

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

type Row = { label: string; period: Period } & (
  | { status: 'running' }
  | { status: 'done'; summary: RangeBacktestSummary }
  | { status: 'error'; message: string }
);

const pct = (v: number) => `${v > 0 ? '+' : ''}${v.toFixed(2)} %`;

/**
 * A suggested range tried on history in the backtest worker: on the period it was picked from, then on the next
 * one, which it never saw. The hourly candles of both are fetched once; the worker keeps them for the second run.
 */
export default function RangeSuggestionBacktest(props: RangeSuggestionBacktestProps) {
  // One run per suggestion: the props travel as one string, so a new object with the same values runs nothing.
  const key = JSON.stringify(props);
  const [rows, setRows] = useState<Row[]>([]);

  useEffect(() => {
    const { symbol, category, investment, leverage, strategy, fit, test } = JSON.parse(
      key,
    ) as RangeSuggestionBacktestProps;
    const parts: { label: string; period: Period }[] = [
      { label: 'Picked from (in-sample)', period: fit },
      { label: 'Next period (out-of-sample)', period: test },
    ];
    setRows(parts.map((p) => ({ ...p, status: 'running' })));
    const runner = new BacktestRunner();
    const whole = { symbol, category, interval: '1h' as const, fromMs: fit.fromMs, toMs: test.toMs };
    const input = { strategy, symbol, category, investment, leverage };
    let alive = true;
    const settle = (index: number, row: Row) =>
      alive && setRows((current) => current.map((r, i) => (i === index ? row : r)));
    void (async () => {
      for (const [index, part] of parts.entries()) {
        try {
          const { outcome } = await runner.runRange({ period: whole, input, range: part.period });
          settle(
            index,
            outcome.ok
              ? { ...part, status: 'done', summary: outcome.summary }
              : { ...part, status: 'error', message: outcome.problems.join(' ') },
          );
        } catch (error) {
          if (error instanceof CancelledError) return;
          settle(index, {
            ...part,
            status: 'error',
            message: error instanceof BacktestRunError ? error.message : 'The backtest could not run.',
          });
        }
      }
    })();
    return () => {
      alive = false;
      runner.dispose();
    };
  }, [key]);

  return (
    <div className="space-y-2" data-testid="range-suggestion-backtest">
      <p className="font-medium text-fg">
        The same rule on the period before, backtested on hourly candles, fees included:
      </p>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[22rem] text-left text-xs tabular-nums">
          <caption className="sr-only">Suggestion backtest</caption>
          <thead className="text-muted">
            <tr>
              <th scope="col" className="py-1 pr-2 font-medium">
                Period
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">
                Grid profit
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">
                Total PnL
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">
                ROI
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Matched
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label} className="border-t border-line">
                <th scope="row" className="py-1.5 pr-2 font-normal text-fg">
                  {row.label}
                  <span className="block text-muted">
                    {formatDay(new Date(row.period.fromMs))} – {formatDay(new Date(row.period.toMs - 1))}
                  </span>
                </th>
                {row.status === 'done' ? (
                  <>
                    <Cell value={row.summary.gridProfit}>{formatSignedUsd(row.summary.gridProfit)}</Cell>
                    <Cell value={row.summary.totalPnl}>{formatSignedUsd(row.summary.totalPnl)}</Cell>
                    <Cell value={row.summary.roiPct}>{pct(row.summary.roiPct)}</Cell>
                    <td className="py-1.5 text-right text-fg">{row.summary.matchedTrades}</td>
                  </>
                ) : (
                  <td
                    colSpan={4}
                    className={clsx('py-1.5 text-right', row.status === 'error' && 'text-down')}
                  >
                    {row.status === 'running' ? 'Running…' : row.message}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function Cell({ value, children }: { value: number; children: React.ReactNode }) {
  return (
    <td
      className={clsx('py-1.5 pr-2 text-right', value > 0 ? 'text-up' : value < 0 ? 'text-down' : 'text-fg')}
    >
      {children}
    </td>
  );
}
