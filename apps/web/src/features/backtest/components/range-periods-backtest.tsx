import type { RangeBacktestSummary } from '@gridbot/engine';
import { clsx } from 'clsx';
import { useEffect, useState } from 'react';
import { formatDay, formatSignedUsd } from '../../../lib/format';
import { BacktestRunError, BacktestRunner, CancelledError } from '../lib/backtest-runner';

/** A period of candles, from ≤ open time < to (Unix ms). */
export interface Period {
  fromMs: number;
  toMs: number;
}

/** A labelled period one row of the table shows. */
export interface LabelledPeriod {
  label: string;
  period: Period;
}

export interface RangePeriodsBacktestProps {
  symbol: string;
  category: 'spot' | 'future';
  investment: number;
  leverage: number | null;
  /** A range strategy in the stored format (docs/trading-rules.md §2.6). */
  strategy: unknown;
  /** The rows, run in this order; their candles are fetched once, from the first start to the last end. */
  periods: readonly LabelledPeriod[];
  /** The sentence above the table. */
  heading: string;
  /** The table's accessible name. */
  caption: string;
  testId?: string;
}

type Row = { label: string; period: Period } & (
  | { status: 'running' }
  | { status: 'done'; summary: RangeBacktestSummary }
  | { status: 'error'; message: string }
);

const pct = (v: number) => `${v > 0 ? '+' : ''}${v.toFixed(2)} %`;

/**
 * A range grid tried on history in the backtest worker, one row per period, on hourly candles with fees. The
 * candles of all periods are fetched once; the worker keeps them for the runs after the first.
 */
export function RangePeriodsBacktest(props: RangePeriodsBacktestProps) {
  // One run per suggestion: the props travel as one string, so a new object with the same values runs nothing.
  const key = JSON.stringify(props);
  const [rows, setRows] = useState<Row[]>([]);

  useEffect(() => {
    const { symbol, category, investment, leverage, strategy, periods } = JSON.parse(
      key,
    ) as RangePeriodsBacktestProps;
    const parts = periods;
    setRows(parts.map((p) => ({ ...p, status: 'running' })));
    const runner = new BacktestRunner();
    const whole = {
      symbol,
      category,
      interval: '1h' as const,
      fromMs: Math.min(...parts.map((p) => p.period.fromMs)),
      toMs: Math.max(...parts.map((p) => p.period.toMs)),
    };
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
    <div className="space-y-2" data-testid={props.testId}>
      <p className="font-medium text-fg">{props.heading}</p>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[18rem] text-left text-xs tabular-nums">
          <caption className="sr-only">{props.caption}</caption>
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
      className={clsx(
        'whitespace-nowrap py-1.5 pr-2 text-right',
        value > 0 ? 'text-up' : value < 0 ? 'text-down' : 'text-fg',
      )}
    >
      {children}
    </td>
  );
}
