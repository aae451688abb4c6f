import { findMarketRules } from '@gridbot/shared';
import { clsx } from 'clsx';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { NumberInput } from '../../../components/ui/number-input';
import { formatPrice, formatSignedUsd } from '../../../lib/format';
import { type RangeRunRequest, runRangePool } from '../lib/backtest-runner';
import { heat, maxAbs } from '../lib/heat';
import { axesAround, gridSteps, type RangeCell, type RangeSweepAxes, rangeCells } from '../lib/range-sweep';
import type { RangeSuggestionBacktestProps } from './range-suggestion-backtest';

type RangeValues = { lower: number; upper: number; grids: number };

interface RangeSweepPanelProps extends RangeSuggestionBacktestProps {
  /** Writes the chosen cell into the form (as `carry` moves it, when given). */
  onApply: (values: RangeValues) => void;
  /**
   * What "Use these values" writes for a cell, when not the cell itself: under a suggestion the sweep runs on the
   * earlier period, and its pick is moved onto the range suggested from the last one.
   */
  carry?: (values: RangeValues) => RangeValues;
}

interface CellResult {
  cell: RangeCell;
  /** Total PnL and max drawdown, or null: the grid could not start (the engine's refusal) or has not run yet. */
  pnl: number | null;
  drawdownPct: number | null;
}

type AxesText = Record<keyof RangeSweepAxes, string>;

const AXIS_FIELDS: { key: keyof RangeSweepAxes; label: string; whole?: boolean }[] = [
  { key: 'lowerFrom', label: 'Lower from' },
  { key: 'lowerTo', label: 'Lower to' },
  { key: 'upperFrom', label: 'Upper from' },
  { key: 'upperTo', label: 'Upper to' },
  { key: 'gridsFrom', label: 'Grids from', whole: true },
  { key: 'gridsTo', label: 'Grids to', whole: true },
];

function textOf(axes: RangeSweepAxes, tickSize: string): AxesText {
  const decimals = tickSize.includes('.') ? (tickSize.replace(/0+$/, '').split('.')[1]?.length ?? 0) : 0;
  const price = (v: number) => String(Number(v.toFixed(decimals)));
  return {
    lowerFrom: price(axes.lowerFrom),
    lowerTo: price(axes.lowerTo),
    upperFrom: price(axes.upperFrom),
    upperTo: price(axes.upperTo),
    gridsFrom: String(axes.gridsFrom),
    gridsTo: String(axes.gridsTo),
  };
}

/** The typed bounds, or null while one is not a positive number. */
function axesOf(text: AxesText): RangeSweepAxes | null {
  const out = {} as RangeSweepAxes;
  for (const { key } of AXIS_FIELDS) {
    const n = Number(text[key]);
    if (text[key].trim() === '' || !Number.isFinite(n) || n <= 0) return null;
    out[key] = n;
  }
  return out;
}

/**
 * The range grid's parameter sweep (docs/product.md, Backtest): every lower × upper × grid count within the bounds
 * the user sets (at first around the grid), backtested over a pool of workers on the earlier period; a heatmap of
 * total PnL (max drawdown on hover), rows the range and columns the grid count. The best cell (or the one
 * clicked) runs on the next period, which the sweep never saw, and "Use these values" writes it into the form.
 */
export default function RangeSweepPanel(props: RangeSweepPanelProps) {
  const { symbol, category, investment, leverage, fit, test, onApply, carry } = props;
  const strategy = props.strategy as { lower: number; upper: number; grids: number } & Record<
    string,
    unknown
  >;
  const tick = findMarketRules(symbol, category)?.tickSize ?? '0.01';
  const [text, setText] = useState<AxesText>(() => textOf(axesAround(strategy), tick));
  const [results, setResults] = useState<CellResult[] | null>(null);
  const [running, setRunning] = useState(false);
  const [chosen, setChosen] = useState<number | null>(null);
  /** The chosen cell on the next period: `done` false while it runs. */
  const [holdout, setHoldout] = useState<{ index: number; done: boolean; pnl: number | null } | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const axes = axesOf(text);
  let cells: RangeCell[] = [];
  let problem: string | null = axes ? null : 'Enter every bound as a number above 0.';
  if (axes) {
    try {
      cells = rangeCells(axes, tick);
      if (cells.length === 0) problem = 'No lower price is below an upper price: change the bounds.';
    } catch (error) {
      problem = (error as Error).message;
    }
  }
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

  const runHoldout = async (index: number, cell: RangeCell, signal: AbortSignal) => {
    setHoldout({ index, done: false, pnl: null });
    const [rest] = await runRangePool([requestOf(cell, test)], () => undefined, signal);
    setHoldout({ index, done: true, pnl: rest?.outcome.ok ? rest.outcome.summary.totalPnl : null });
  };

  const run = async () => {
    if (problem) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    const swept = cells;
    const out: CellResult[] = swept.map((cell) => ({ cell, pnl: null, drawdownPct: null }));
    setResults(out.slice());
    setChosen(null);
    setHoldout(null);
    setRunning(true);
    try {
      await runRangePool(
        swept.map((cell) => requestOf(cell, fit)),
        (index, done) => {
          const s = done.outcome.ok ? done.outcome.summary : null;
          out[index] = {
            cell: swept[index] as RangeCell,
            pnl: s ? s.totalPnl : null,
            drawdownPct: s ? s.maxDrawdownPct : null,
          };
          setResults(out.slice());
        },
        controller.signal,
      );
      const top = bestIndex(out);
      setChosen(top);
      if (top !== null) await runHoldout(top, out[top]?.cell as RangeCell, controller.signal);
    } catch {
      // Cancelled: the cells done so far stay on the map.
    } finally {
      setRunning(false);
    }
  };

  const choose = (index: number) => {
    if (running || results?.[index]?.pnl == null) return;
    setChosen(index);
    const controller = new AbortController();
    abort.current?.abort();
    abort.current = controller;
    void runHoldout(index, results[index].cell, controller.signal).catch(() => undefined);
  };

  const pick = chosen !== null ? results?.[chosen] : undefined;
  const shownCells = results?.map((r) => r.cell) ?? cells;
  const rows = [...new Map(shownCells.map((c) => [c.row, c])).values()];
  const counts = results
    ? [...new Set(shownCells.map((c) => c.grids))]
    : axes
      ? gridSteps(axes.gridsFrom, axes.gridsTo)
      : [];
  const scale = results ? maxAbs(results) : 1;
  const indexAt = (row: number, grids: number) =>
    results?.findIndex((r) => r.cell.row === row && r.cell.grids === grids) ?? -1;

  const picked = pick ? { lower: pick.cell.lower, upper: pick.cell.upper, grids: pick.cell.grids } : null;
  const written = picked && carry ? carry(picked) : picked;

  return (
    <section
      aria-label="Range sweep"
      className="space-y-3 border-t border-line pt-3"
      data-testid="range-sweep"
    >
      <div>
        <h3 className="text-sm font-semibold text-fg">Parameter sweep</h3>
        <p className="text-xs text-muted">
          Backtests every lower × upper price × grid count within these bounds ({cells.length}) on the earlier
          period, in parallel workers; the best then runs on the next period, which the sweep never saw.
        </p>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {AXIS_FIELDS.map(({ key, label, whole: integer }) => (
          <NumberInput
            key={key}
            label={label}
            whole={integer}
            value={text[key]}
            onChange={(e) => setText((t) => ({ ...t, [key]: e.target.value }))}
          />
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {running ? (
          <Button size="sm" variant="outline" onClick={() => abort.current?.abort()}>
            Cancel sweep
          </Button>
        ) : (
          <Button
            size="sm"
            variant="secondary"
            disabled={problem !== null}
            onClick={() => void run()}
            data-testid="range-sweep-run"
          >
            Run sweep ({cells.length} backtests)
          </Button>
        )}
        <Button
          size="sm"
          variant="outline"
          disabled={running}
          onClick={() => setText(textOf(axesAround(strategy), tick))}
        >
          Around this grid
        </Button>
      </div>
      {problem ? <p className="text-xs font-medium text-down">{problem}</p> : null}
      {results ? (
        <div className="overflow-x-auto">
          <table
            className="border-separate border-spacing-0.5 text-[11px] tabular-nums"
            data-testid="range-sweep-heatmap"
          >
            <caption className="pb-1 text-left text-xs text-muted">
              Total PnL on the earlier period: rows lower–upper, columns grids. Hover a cell for its max
              drawdown; click to choose it.
            </caption>
            <thead>
              <tr>
                <th scope="col" className="sticky left-0 z-10 bg-surface px-1 text-left text-muted">
                  Range ↓ grids →
                </th>
                {counts.map((n) => (
                  <th key={n} scope="col" className="px-1 font-medium text-muted">
                    {n}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((first) => (
                <tr key={first.row}>
                  <th
                    scope="row"
                    className="sticky left-0 z-10 whitespace-nowrap bg-surface px-1 text-left font-medium text-muted"
                  >
                    {formatPrice(first.lower)}–{formatPrice(first.upper)}
                  </th>
                  {counts.map((n) => {
                    const index = indexAt(first.row, n);
                    const r = index < 0 ? undefined : results[index];
                    return (
                      <td key={n} className="p-0">
                        <button
                          type="button"
                          title={
                            r?.pnl == null
                              ? 'Not run or could not start'
                              : `PnL ${formatSignedUsd(r.pnl)} · max drawdown ${r.drawdownPct?.toFixed(2)} %`
                          }
                          aria-label={`${formatPrice(first.lower)}–${formatPrice(first.upper)}, ${n} grids`}
                          aria-pressed={index >= 0 && index === chosen}
                          onClick={() => choose(index)}
                          className={clsx(
                            'block h-7 min-w-11 rounded px-1 text-fg',
                            index >= 0 && index === chosen && 'ring-2 ring-primary',
                          )}
                          style={{ background: heat(r?.pnl ?? null, scale) }}
                        >
                          {r?.pnl == null ? '·' : Math.round(r.pnl)}
                        </button>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {pick && pick.pnl !== null ? (
        <div
          className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-surface-2 px-3 py-2 text-sm"
          data-testid="range-sweep-best"
        >
          <p className="text-fg">
            {chosen === bestIndex(results ?? []) ? 'Best' : 'Chosen'}: {formatPrice(pick.cell.lower)}–
            {formatPrice(pick.cell.upper)}, {pick.cell.grids} grids, {formatSignedUsd(pick.pnl)}; on the next
            period{' '}
            {holdout === null || holdout.index !== chosen || !holdout.done
              ? '…'
              : holdout.pnl === null
                ? 'it could not start'
                : formatSignedUsd(holdout.pnl)}
            .
          </p>
          {written && (written.lower !== pick.cell.lower || written.upper !== pick.cell.upper) ? (
            <p className="w-full text-xs text-muted" data-testid="range-sweep-carried">
              On today's range: {formatPrice(written.lower)}–{formatPrice(written.upper)}, {written.grids}{' '}
              grids, each bound as far from today's suggestion as the pick is from that period's.
            </p>
          ) : null}
          <Button size="sm" onClick={() => written && onApply(written)}>
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
