/**
 * The range sweep: 25 backtests of the picked range widened and narrowed × the grid count, on the period it was
 * picked from; the best runs on the next period and "Use these values" hands it to the form. The worker is
 * replaced by a runner that answers a figure per grid (the engine's runs are tested in lib/range-core.test.ts).
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RangeRunRequest } from '../lib/backtest-runner';
import RangeSweepPanel from './range-sweep-panel';

const requests: RangeRunRequest[] = [];

vi.mock('../lib/backtest-runner', async (original) => {
  const real = await original<typeof import('../lib/backtest-runner')>();
  class FakeRunner {
    async runRange(req: RangeRunRequest) {
      requests.push(req);
      const s = req.input.strategy as { lower: number; upper: number; grids: number };
      // 20 grids cannot start; otherwise the PnL is the grid count less a dollar per 1,000 of width away from
      // 6,750 (the picked width), so 16 grids on the picked range earn most: +$16.
      if (s.grids === 20) return { outcome: { ok: false, problems: ['refused'] }, candles: 0 };
      const off = Math.abs(s.upper - s.lower - 6750) / 1000;
      const outOfSample = req.range?.fromMs === test.fromMs;
      return {
        outcome: { ok: true, summary: { totalPnl: outOfSample ? -3.5 : s.grids - off }, fills: [] },
        candles: 168,
      };
    }
    cancel() {}
    dispose() {}
  }
  // The pool's own order and cancelling belong to runPool's code, shared with the Multigrid sweep: here one fake
  // runner answers every request in turn.
  const runRangePool = async (
    reqs: readonly RangeRunRequest[],
    onResult: (index: number, done: Awaited<ReturnType<FakeRunner['runRange']>>) => void,
  ) => {
    const runner = new FakeRunner();
    const out = [];
    for (const [i, r] of reqs.entries()) {
      const done = await runner.runRange(r);
      onResult(i, done);
      out.push(done);
    }
    return out;
  };
  return { ...real, BacktestRunner: FakeRunner, runRangePool };
});

const H = 3_600_000;
const fit = { fromMs: 1000 * H, toMs: 1168 * H };
const test = { fromMs: 1168 * H, toMs: 1336 * H };

describe('RangeSweepPanel', () => {
  it('runs every cell on the period picked from, the best on the next, and hands the best to the form', async () => {
    const onApply = vi.fn();
    const user = userEvent.setup();
    render(
      <RangeSweepPanel
        symbol="BTCUSDT"
        category="spot"
        investment={1000}
        leverage={null}
        strategy={{ type: 'range', lower: 90800, upper: 97550, grids: 13, mode: 'arithmetic' }}
        fit={fit}
        test={test}
        onApply={onApply}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Run sweep (25 backtests)' }));
    const best = await screen.findByTestId('range-sweep-best');
    expect(best).toHaveTextContent(
      'Best: 90,800.00–97,550.00, 16 grids, +$16.00; on the next period -$3.50.',
    );
    const fitted = requests.filter((r) => r.range?.fromMs === fit.fromMs);
    expect(fitted).toHaveLength(25);
    expect(requests.filter((r) => r.range?.fromMs === test.fromMs)).toHaveLength(1);
    for (const r of requests)
      expect(r.period).toMatchObject({ interval: '1h', fromMs: fit.fromMs, toMs: test.toMs });
    const table = screen.getByRole('table', { name: 'Range sweep: total PnL by range and grid count' });
    // The 20-grid column could not start anywhere.
    const firstRow = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(firstRow).toHaveTextContent('92,150.00–96,200.00+$4.30+$7.30+$10.30+$13.30—');
    await user.click(screen.getByRole('button', { name: 'Use these values' }));
    expect(onApply).toHaveBeenCalledWith({ lower: 90800, upper: 97550, grids: 16 });
  });
});
