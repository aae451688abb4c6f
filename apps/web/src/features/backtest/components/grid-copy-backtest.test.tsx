/**
 * A Copy BOTs grid's backtest: the grid's range and settings run on its pair's last 7 and 30 days (one fetch of
 * the 30 days' hourly candles), with the amount the member types. The worker is replaced by a runner that answers
 * what the engine would (its own tests: lib/range-core.test.ts).
 */
import type { RangeBacktestSummary } from '@gridbot/engine';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { RangeRunRequest } from '../lib/backtest-runner';
import GridCopyBacktest from './grid-copy-backtest';

const requests: RangeRunRequest[] = [];
const answers = new Map<number, Partial<RangeBacktestSummary>>();

vi.mock('../lib/backtest-runner', async (original) => {
  const real = await original<typeof import('../lib/backtest-runner')>();
  class FakeRunner {
    async runRange(req: RangeRunRequest) {
      requests.push(req);
      const summary = answers.get(req.range?.fromMs ?? 0) ?? {};
      return { outcome: { ok: true, summary, fills: [] }, candles: 720 };
    }
    dispose() {}
  }
  return { ...real, BacktestRunner: FakeRunner };
});

const H = 3_600_000;
const D = 24 * H;
// 2026-11-29 12:34 UTC: the periods end at 12:00, the last whole hour.
const NOW = Date.UTC(2026, 10, 29, 12, 34);
const END = Date.UTC(2026, 10, 29, 12);
const grid = { lower: 1900, upper: 2100, grids: 4, mode: 'arithmetic', leverage: 3, direction: 'long' };

describe('GridCopyBacktest', () => {
  it("runs the grid on the pair's last 7 and 30 days with the amount typed, from one fetch", async () => {
    answers.set(END - 7 * D, { gridProfit: 3.5, totalPnl: 2.25, roiPct: 0.45, matchedTrades: 6 });
    answers.set(END - 30 * D, { gridProfit: 11, totalPnl: -4, roiPct: -0.8, matchedTrades: 19 });
    render(<GridCopyBacktest symbol="ETHUSDT" category="future" leverage={3} strategy={grid} nowMs={NOW} />);
    // Typed key by key: only the amount the typing paused at runs.
    for (const value of ['5', '50', '500'])
      fireEvent.change(screen.getByLabelText('Amount (USDT)'), { target: { value } });
    await waitFor(() => expect(requests.filter((r) => r.input.investment === 500)).toHaveLength(2));
    expect(requests.filter((r) => r.input.investment === 5 || r.input.investment === 50)).toEqual([]);
    const table = screen.getByRole('table', { name: 'Grid backtest' });
    await waitFor(() => expect(within(table).getAllByText(/\$/).length).toBe(4));
    const [, week, month] = within(table).getAllByRole('row');
    expect(week).toHaveTextContent('Last 7 days');
    expect(week).toHaveTextContent('+$3.50+$2.25+0.45 %6');
    expect(month).toHaveTextContent('Last 30 days');
    expect(month).toHaveTextContent('+$11.00-$4.00-0.80 %19');
    const last = requests.filter((r) => r.input.investment === 500);
    expect(last.map((r) => r.range)).toEqual([
      { fromMs: END - 7 * D, toMs: END },
      { fromMs: END - 30 * D, toMs: END },
    ]);
    for (const r of last) {
      expect(r.period).toEqual({
        symbol: 'ETHUSDT',
        category: 'future',
        interval: '1h',
        fromMs: END - 30 * D,
        toMs: END,
      });
      expect(r.input).toEqual({
        strategy: { ...grid, type: 'range' },
        symbol: 'ETHUSDT',
        category: 'future',
        investment: 500,
        leverage: 3,
      });
    }
  });

  it('refuses an amount that is not above 0 with a message, and runs nothing', async () => {
    render(<GridCopyBacktest symbol="ETHUSDT" category="spot" leverage={null} strategy={grid} nowMs={NOW} />);
    // The amount first shown, 1000, runs both periods.
    const table = screen.getByRole('table', { name: 'Grid backtest' });
    await waitFor(() => expect(within(table).getAllByText(/\$/).length).toBe(4));
    const runs = requests.length;
    fireEvent.change(screen.getByLabelText('Amount (USDT)'), { target: { value: '-5' } });
    expect(
      await screen.findByText('Enter an amount above 0 to backtest the grid with it.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Grid backtest' })).toBeNull();
    expect(requests.length).toBe(runs);
  });
});
