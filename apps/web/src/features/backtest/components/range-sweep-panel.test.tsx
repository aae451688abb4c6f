/**
 * The range grid's parameter sweep: lower × upper × grid count within bounds set around the grid, on the earlier
 * period; the best (or a clicked cell) runs on the next period and "Use these values" hands it to the form. The
 * worker is replaced by a runner that answers a figure per grid (the engine's runs are tested in
 * lib/range-core.test.ts).
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentProps } from 'react';
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
      // 15 grids cannot start; otherwise the PnL is the grid count less a dollar per 1,000 of width away from
      // 8,000 (the grid's width), the drawdown a tenth of the grid count; on the next period −$3.50.
      if (s.grids === 15) return { outcome: { ok: false, problems: ['refused'] }, candles: 0 };
      const off = Math.abs(s.upper - s.lower - 8000) / 1000;
      const outOfSample = req.range?.fromMs === test.fromMs;
      const totalPnl = outOfSample ? -3.5 : s.grids - off;
      return {
        outcome: { ok: true, summary: { totalPnl, maxDrawdownPct: s.grids / 10 }, fills: [] },
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

/** The panel around a 90,000–98,000 BTC grid of 10 levels, 1,000 USDT. */
function renderPanel(props: Pick<ComponentProps<typeof RangeSweepPanel>, 'onApply' | 'carry'>) {
  return render(
    <RangeSweepPanel
      symbol="BTCUSDT"
      category="spot"
      investment={1000}
      leverage={null}
      strategy={{ type: 'range', lower: 90000, upper: 98000, grids: 10, mode: 'arithmetic' }}
      fit={fit}
      test={test}
      {...props}
    />,
  );
}

describe('RangeSweepPanel', () => {
  it('sweeps lower × upper × grids around the grid on a heatmap and hands the best or a chosen cell to the form', async () => {
    const onApply = vi.fn();
    const user = userEvent.setup();
    renderPanel({ onApply });
    // Around 90,000–98,000 (a quarter of its width, 2,000, either side) and 5 to 15 grids.
    expect(screen.getByLabelText('Lower from')).toHaveValue('88000');
    expect(screen.getByLabelText('Upper to')).toHaveValue('100000');
    expect(screen.getByLabelText('Grids to')).toHaveValue('15');
    // Lowers 88,000, 89,333.33, 90,666.67, 92,000 × uppers 96,000 … 100,000 × grids 5, 7, 9, 11, 13, 15.
    await user.click(screen.getByRole('button', { name: 'Run sweep (96 backtests)' }));
    const best = await screen.findByTestId('range-sweep-best');
    // 88,000–96,000 is 8,000 wide: 13 grids earn most (15 cannot start).
    await waitFor(() =>
      expect(best).toHaveTextContent(
        'Best: 88,000.00–96,000.00, 13 grids, +$13.00; on the next period -$3.50.',
      ),
    );
    expect(requests.filter((r) => r.range?.fromMs === fit.fromMs)).toHaveLength(96);
    expect(requests.filter((r) => r.range?.fromMs === test.fromMs)).toHaveLength(1);
    for (const r of requests)
      expect(r.period).toMatchObject({ interval: '1h', fromMs: fit.fromMs, toMs: test.toMs });
    const heatmap = screen.getByTestId('range-sweep-heatmap');
    const [, first] = within(heatmap).getAllByRole('row');
    expect(first).toHaveTextContent('88,000.00–96,000.005791113·');
    const cell = within(heatmap).getByRole('button', { name: '88,000.00–96,000.00, 13 grids' });
    expect(cell).toHaveAttribute('aria-pressed', 'true');
    expect(cell).toHaveAttribute('title', 'PnL +$13.00 · max drawdown 1.30 %');
    // 92,000–96,000 is 4,000 wide: 4 short of 8,000, so 9 grids make 9 − 4 = 5.
    await user.click(within(heatmap).getByRole('button', { name: '92,000.00–96,000.00, 9 grids' }));
    await waitFor(() =>
      expect(best).toHaveTextContent(
        'Chosen: 92,000.00–96,000.00, 9 grids, +$5.00; on the next period -$3.50.',
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Use these values' }));
    expect(onApply).toHaveBeenCalledWith({ lower: 92000, upper: 96000, grids: 9 });
  });

  it("under a suggestion, shows and writes the pick carried onto today's range", async () => {
    const onApply = vi.fn();
    const user = userEvent.setup();
    // The market fell a tenth since the earlier period.
    renderPanel({ onApply, carry: (v) => ({ lower: v.lower * 0.9, upper: v.upper * 0.9, grids: v.grids }) });
    await user.click(screen.getByRole('button', { name: 'Run sweep (96 backtests)' }));
    const best = await screen.findByTestId('range-sweep-best');
    await waitFor(() => expect(best).toHaveTextContent('Best: 88,000.00–96,000.00, 13 grids'));
    expect(screen.getByTestId('range-sweep-carried')).toHaveTextContent(
      "On today's range: 79,200.00–86,400.00, 13 grids",
    );
    await user.click(screen.getByRole('button', { name: 'Use these values' }));
    expect(onApply).toHaveBeenCalledWith({ lower: 79200, upper: 86400, grids: 13 });
  });

  it('sweeps the bounds the user sets', async () => {
    const user = userEvent.setup();
    renderPanel({ onApply: () => undefined });
    // Grids 5 to 8: four counts × 16 ranges.
    await user.clear(screen.getByLabelText('Grids to'));
    await user.type(screen.getByLabelText('Grids to'), '8');
    expect(screen.getByRole('button', { name: 'Run sweep (64 backtests)' })).toBeEnabled();
    // A lower bound above every upper leaves no range.
    await user.clear(screen.getByLabelText('Lower from'));
    await user.type(screen.getByLabelText('Lower from'), '200000');
    await user.clear(screen.getByLabelText('Lower to'));
    await user.type(screen.getByLabelText('Lower to'), '210000');
    expect(
      screen.getByText('No lower price is below an upper price: change the bounds.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run sweep (0 backtests)' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Around this grid' }));
    expect(screen.getByRole('button', { name: 'Run sweep (96 backtests)' })).toBeEnabled();
  });
});
