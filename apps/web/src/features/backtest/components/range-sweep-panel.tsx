import { findMarketRules } from '@gridbot/shared';
import { clsx } from 'clsx';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { formatPrice, formatSignedUsd } from '../../../lib/format';
import { type RangeRunRequest, runRangePool } from '../lib/backtest-runner';
import { GRID_FACTORS, gridCounts, RANGE_WIDTHS, type RangeCell, rangeCells } from '../lib/range-sweep';
import type { RangeSuggestionBacktestProps } from './range-suggestion-backtest';

interface RangeSweepPanelProps extends RangeSuggestionBacktestProps {
  /** Writes the chosen cell into the form. */
  onApply: (values: { lower: number; upper: number; grids: number }) => void;
}

interface CellResult {
  cell: RangeCell;
  /** Total PnL, or null: the grid could not start (the engine's refusal) or has not run yet. */
  pnl: number | null;
}

/**
 * The range grid's sweep: the picked range widened and narrowed × the grid count, backtested over a pool of workers
 * on the period it was picked from; the best cell then runs on the next period (out-of-sample), and "Use these
 * values" writes it into the form.
 */
export default function RangeSweepPanel(props: RangeSweepPanelProps) {
  const { symbol, category, investment, leverage, fit, test, onApply } = props;
  const strategy = props.strategy as { lower: number; upper: number; grids: number } & Record<
    string,
    unknown
  >;
  const [results, setResults] = useState<CellResult[] | null>(null);
  const [running, setRunning] = useState(false);
  const [best, setBest] = useState<number | null>(null);
  const [holdout, setHoldout] = useState<{ pnl: number | null } | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const tick = findMarketRules(symbol, category)?.tickSize ?? '0.01';
  const cells = rangeCells(strategy, tick);
  const counts = gridCounts(strategy.grids);
  const whole = { symbol, category, interval: '1h' as const, fromMs: fit.fromMs, toMs: test.toMs };
  const requestOf = (cell: RangeCell, range: { fromMs: number; toMs: number }): RangeRunRequest => ({
    period: whole,
    input: {
      strategy: { ...strategy, lower: cell.lower, upper: cell.upper, grids: cell.grids },
      symbol,
      category,
      investment,
      leverage,
    },
    range,
  });

  const run = async () => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    const out: CellResult[] = cells.map((cell) => ({ cell, pnl: null }));
    setResults(out.slice());
    setBest(null);
    setHoldout(null);
    setRunning(true);
    try {
      await runRangePool(
        cells.map((cell) => requestOf(cell, fit)),
        (index, done) => {
          out[index] = {
            cell: cells[index] as RangeCell,
            pnl: done.outcome.ok ? done.outcome.summary.totalPnl : null,
          };
          setResults(out.slice());
        },
        controller.signal,
      );
      const top = bestIndex(out);
      setBest(top);
      if (top !== null) {
        const [rest] = await runRangePool(
          [requestOf(out[top]?.cell as RangeCell, test)],
          () => undefined,
          controller.signal,
        );
        setHoldout({ pnl: rest?.outcome.ok ? rest.outcome.summary.totalPnl : null });
      }
    } catch {
      // Cancelled: the cells done so far stay in the table.
    } finally {
      setRunning(false);
    }
  };

  const chosen = best !== null ? results?.[best] : undefined;
  const at = (row: number, col: number) => results?.find((r) => r.cell.row === row && r.cell.col === col);

  return (
    <section
      aria-label="Range sweep"
      className="space-y-2 border-t border-line pt-3"
      data-testid="range-sweep"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium text-fg">
          Sweep the range ({RANGE_WIDTHS.length} widths) and the grids ({GRID_FACTORS.length} counts) on the
          period it was picked from.
        </p>
        {running ? (
          <Button size="sm" variant="outline" onClick={() => abort.current?.abort()}>
            Cancel sweep
          </Button>
        ) : (
          <Button size="sm" variant="outline" onClick={() => void run()}>
            Run sweep ({cells.length} backtests)
          </Button>
        )}
      </div>
      {results ? (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[20rem] text-right text-xs tabular-nums">
            <caption className="sr-only">Range sweep: total PnL by range and grid count</caption>
            <thead className="text-muted">
              <tr>
                <th scope="col" className="py-1 pr-2 text-left font-medium">
                  Range
                </th>
                {counts.map((n) => (
                  <th key={n} scope="col" className="py-1 pr-2 font-medium">
                    {n} grids
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {RANGE_WIDTHS.map((w, row) => {
                const first = at(row, 0);
                if (!first) return null;
                return (
                  <tr key={w} className="border-t border-line">
                    <th scope="row" className="py-1.5 pr-2 text-left font-normal text-fg">
                      {formatPrice(first.cell.lower)}–{formatPrice(first.cell.upper)}
                    </th>
                    {counts.map((n, col) => {
                      const r = at(row, col);
                      const isBest = r !== undefined && chosen === r;
                      return (
                        <td
                          key={n}
                          className={clsx(
                            'py-1.5 pr-2',
                            r?.pnl == null
                              ? 'text-muted'
                              : r.pnl > 0
                                ? 'text-up'
                                : r.pnl < 0
                                  ? 'text-down'
                                  : 'text-fg',
                            isBest && 'font-bold underline',
                          )}
                        >
                          {r?.pnl == null ? '—' : formatSignedUsd(r.pnl)}
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {chosen ? (
        <div className="flex flex-wrap items-center justify-between gap-2" data-testid="range-sweep-best">
          <p className="text-fg">
            Best: {formatPrice(chosen.cell.lower)}–{formatPrice(chosen.cell.upper)}, {chosen.cell.grids}{' '}
            grids, {formatSignedUsd(chosen.pnl)}; on the next period{' '}
            {holdout === null
              ? '…'
              : holdout.pnl === null
                ? 'it could not start'
                : formatSignedUsd(holdout.pnl)}
            .
          </p>
          <Button
            size="sm"
            onClick={() =>
              onApply({ lower: chosen.cell.lower, upper: chosen.cell.upper, grids: chosen.cell.grids })
            }
          >
            Use these values
          </Button>
        </div>
      ) : null}
    </section>
  );
}

/** The cell with the highest total PnL (the first on a tie), or null when none could start. */
function bestIndex(results: readonly CellResult[]): number | null {
  let best: number | null = null;
  results.forEach((r, i) => {
    if (r.pnl === null) return;
    if (best === null || r.pnl > (results[best]?.pnl as number)) best = i;
  });
  return best;
}
