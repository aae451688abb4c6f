import { clsx } from 'clsx';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { NumberInput } from '../../../components/ui/number-input';
import { formatSignedUsd } from '../../../lib/format';
import type { BacktestRequest } from '../hooks/use-backtest';
import { type RunDone, type RunRequest, runPool } from '../lib/backtest-runner';
import { heat, maxAbs } from '../lib/heat';
import { type SweepCell, steps, strategyWith, sweepCells } from '../lib/sweep';

/** What a sweep cell came to: total PnL and max drawdown (null: the strategy could not start). */
interface CellResult {
  cell: SweepCell;
  pnl: number | null;
  drawdownPct: number | null;
}

interface SweepPanelProps {
  request: BacktestRequest | null;
  onApply: (values: {
    buyPct: number;
    takeProfitPct: number;
    buyUpPct?: number;
    takeProfitDownPct?: number;
  }) => void;
}

/** Share of the period the sweep is fitted on when out-of-sample is on; the rest shows how the choice holds up. */
const FIT_SHARE = 0.7;

function summaryOf(done: RunDone) {
  return done.outcome.ok
    ? { pnl: done.outcome.summary.totalPnl, drawdownPct: done.outcome.summary.maxDrawdownPct }
    : { pnl: null, drawdownPct: null };
}

/**
 * The parameter sweep (docs/product.md, Backtest): buy spacing × take-profit (× trailing for Multigrid), at most 100
 * backtests over a pool of workers, a heatmap of total PnL with the max drawdown on hover, and "Use these
 * values" writing the chosen cell into the editor. Optionally fitted on the first 70 % of the period with
 * the best cell then run on the rest.
 */
export default function SweepPanel({ request, onApply }: SweepPanelProps) {
  const [range, setRange] = useState({ buyLo: '0.5', buyHi: '5', tpLo: '0.5', tpHi: '5' });
  const [trailing, setTrailing] = useState(false);
  const [outOfSample, setOutOfSample] = useState(false);
  const [results, setResults] = useState<CellResult[] | null>(null);
  const [done, setDone] = useState(0);
  const [running, setRunning] = useState(false);
  const [chosen, setChosen] = useState<number | null>(null);
  const [holdout, setHoldout] = useState<{ pnl: number | null; holdPct: number | null } | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const strategy = request?.input.strategy as Parameters<typeof strategyWith>[0] | undefined;
  const multigrid = strategy?.type === 'multigrid';
  const withTrail = multigrid && trailing;
  const count = withTrail ? { buy: 6, tp: 5 } : { buy: 10, tp: 10 };
  const num = (v: string, fallback: number) =>
    Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : fallback;
  const axes = {
    buyPct: steps(num(range.buyLo, 0.5), num(range.buyHi, 5), count.buy),
    takeProfitPct: steps(num(range.tpLo, 0.5), num(range.tpHi, 5), count.tp),
    ...(withTrail ? { trailPct: [0, 0.25, 0.5] } : {}),
  };
  const cells = sweepCells(axes);

  const run = async () => {
    if (!request || !strategy) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    const { fromMs, toMs } = request.period;
    const split = fromMs + Math.floor((toMs - fromMs) * FIT_SHARE);
    const fit = outOfSample ? { fromMs, toMs: split } : undefined;
    const requests: RunRequest[] = cells.map((cell) => ({
      period: request.period,
      input: { ...request.input, strategy: strategyWith(strategy, cell) },
      ...(fit ? { range: fit } : {}),
      record: false,
    }));
    const out: CellResult[] = cells.map((cell) => ({ cell, pnl: null, drawdownPct: null }));
    setResults(out.slice());
    setDone(0);
    setChosen(null);
    setHoldout(null);
    setRunning(true);
    let finished = 0;
    try {
      await runPool(
        requests,
        (index, result) => {
          out[index] = { cell: cells[index] as SweepCell, ...summaryOf(result) };
          finished += 1;
          setDone(finished);
          setResults(out.slice());
        },
        controller.signal,
      );
      const best = bestIndex(out);
      setChosen(best);
      if (outOfSample && best !== null) {
        const [rest] = await runPool(
          [{ ...(requests[best] as RunRequest), range: { fromMs: split, toMs }, record: false }],
          () => undefined,
          controller.signal,
        );
        const o = rest?.outcome;
        setHoldout(
          o?.ok
            ? { pnl: o.summary.totalPnl, holdPct: o.summary.buyAndHoldPct }
            : { pnl: null, holdPct: null },
        );
      }
    } catch {
      // Cancelled: the cells done so far stay on the map.
    } finally {
      setRunning(false);
    }
  };

  const cancel = () => abort.current?.abort();
  const pick = chosen !== null ? results?.[chosen] : undefined;
  const trails = axes.trailPct ?? [undefined];

  return (
    <section
      aria-label="Parameter sweep"
      className="space-y-3 border-t border-line pt-4"
      data-testid="sweep-panel"
    >
      <div>
        <h3 className="text-sm font-semibold text-fg">Parameter sweep</h3>
        <p className="text-xs text-muted">
          Backtests every grid spacing × take-profit {withTrail ? '× trailing ' : ''}combination (
          {cells.length}) on the same history, in parallel workers.
        </p>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <NumberInput
          label="Spacing from (%)"
          value={range.buyLo}
          onChange={(e) => setRange({ ...range, buyLo: e.target.value })}
        />
        <NumberInput
          label="Spacing to (%)"
          value={range.buyHi}
          onChange={(e) => setRange({ ...range, buyHi: e.target.value })}
        />
        <NumberInput
          label="Take-profit from (%)"
          value={range.tpLo}
          onChange={(e) => setRange({ ...range, tpLo: e.target.value })}
        />
        <NumberInput
          label="Take-profit to (%)"
          value={range.tpHi}
          onChange={(e) => setRange({ ...range, tpHi: e.target.value })}
        />
      </div>
      <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-fg">
        {multigrid ? (
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              className="size-4 accent-(--primary)"
              checked={trailing}
              onChange={(e) => setTrailing(e.target.checked)}
            />
            Also vary trailing (0, 0.25, 0.5 %)
          </label>
        ) : null}
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            className="size-4 accent-(--primary)"
            checked={outOfSample}
            onChange={(e) => setOutOfSample(e.target.checked)}
          />
          Out of sample: fit on the first 70 %, test on the rest
        </label>
      </div>
      {running ? (
        <div className="flex items-center gap-3">
          <p className="text-sm text-muted" aria-live="polite" data-testid="sweep-progress">
            {done} / {cells.length} backtests…
          </p>
          <Button type="button" variant="outline" size="sm" onClick={cancel}>
            Cancel
          </Button>
        </div>
      ) : (
        <Button type="button" variant="secondary" disabled={!request} onClick={run} data-testid="sweep-run">
          Run sweep
        </Button>
      )}
      {results ? (
        <div className="space-y-3">
          <div className="overflow-x-auto">
            <table
              className="border-separate border-spacing-0.5 text-[11px] tabular-nums"
              data-testid="sweep-heatmap"
            >
              <caption className="pb-1 text-left text-xs text-muted">
                Total PnL{outOfSample ? ' on the first 70 %' : ''}: rows take-profit %, columns spacing %.
                Hover a cell for its max drawdown; click to choose it.
              </caption>
              <thead>
                <tr>
                  {/* The take-profit labels stay in view while a wide heatmap scrolls sideways (390 px). */}
                  <th scope="col" className="sticky left-0 z-10 bg-surface px-1 text-muted">
                    TP ↓ spacing →
                  </th>
                  {axes.buyPct.map((b) => (
                    <th key={b} scope="col" className="px-1 font-medium text-muted">
                      {b}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {axes.takeProfitPct.map((tp) => (
                  <tr key={tp}>
                    <th scope="row" className="sticky left-0 z-10 bg-surface px-1 font-medium text-muted">
                      {tp}
                    </th>
                    {axes.buyPct.map((b) => {
                      // With trailing, a cell shows the best of its trailing values.
                      const idx = bestIndex(
                        results.map((r) => (r.cell.buyPct === b && r.cell.takeProfitPct === tp ? r : null)),
                      );
                      const r = idx === null ? undefined : results[idx];
                      const scale = maxAbs(results);
                      return (
                        <td key={b} className="p-0">
                          <button
                            type="button"
                            title={
                              r?.pnl == null
                                ? 'Not run or could not start'
                                : `PnL ${formatSignedUsd(r.pnl)} · max drawdown ${r.drawdownPct?.toFixed(2)} %${r.cell.trailPct !== undefined ? ` · trailing ${r.cell.trailPct} %` : ''}`
                            }
                            aria-label={`Spacing ${b} %, take-profit ${tp} %`}
                            aria-pressed={idx !== null && idx === chosen}
                            onClick={() => idx !== null && r?.pnl != null && setChosen(idx)}
                            className={clsx(
                              'block h-7 min-w-11 rounded px-1 text-fg',
                              idx !== null && idx === chosen && 'ring-2 ring-primary',
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
            {trails.length > 1 ? (
              <p className="text-xs text-muted">Each cell shows its best trailing value.</p>
            ) : null}
          </div>
          {pick && pick.pnl !== null ? (
            <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-surface-2 px-3 py-2 text-sm">
              <span data-testid="sweep-choice">
                Spacing {pick.cell.buyPct} %, take-profit {pick.cell.takeProfitPct} %
                {pick.cell.trailPct !== undefined ? `, trailing ${pick.cell.trailPct} %` : ''}:{' '}
                {formatSignedUsd(pick.pnl)}
                {holdout
                  ? ` · on the last 30 %: ${holdout.pnl === null ? 'could not start' : formatSignedUsd(holdout.pnl)}${holdout.holdPct === null ? '' : ` (holding ${holdout.holdPct.toFixed(2)} %)`}`
                  : ''}
              </span>
              <Button
                type="button"
                size="sm"
                onClick={() =>
                  onApply({
                    buyPct: pick.cell.buyPct,
                    takeProfitPct: pick.cell.takeProfitPct,
                    ...(pick.cell.trailPct !== undefined
                      ? { buyUpPct: pick.cell.trailPct, takeProfitDownPct: pick.cell.trailPct }
                      : {}),
                  })
                }
              >
                Use these values
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

/** The index of the highest PnL among the given results (null entries skipped). */
function bestIndex(results: readonly (CellResult | null)[]): number | null {
  let best: number | null = null;
  results.forEach((r, i) => {
    if (r?.pnl == null) return;
    if (best === null || r.pnl > (results[best]?.pnl as number)) best = i;
  });
  return best;
}
