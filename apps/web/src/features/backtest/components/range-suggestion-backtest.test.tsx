/**
 * The suggestion's backtest: one fetch of both periods' hourly candles, the picked range run on the period it came
 * from, then on the next one. The worker is replaced by a runner that answers what the engine would (its own
 * tests: lib/range-core.test.ts).
 */
import type { RangeBacktestSummary } from '@gridbot/engine';
import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { RangeRunRequest } from '../lib/backtest-runner';
import RangeSuggestionBacktest from './range-suggestion-backtest';

const requests: RangeRunRequest[] = [];
const answers: Record<number, Partial<RangeBacktestSummary> | string> = {};

vi.mock('../lib/backtest-runner', async (original) => {
  const real = await original<typeof import('../lib/backtest-runner')>();
  class FakeRunner {
    async runRange(req: RangeRunRequest) {
      requests.push(req);
      const answer = answers[req.range?.fromMs ?? 0];
      if (typeof answer === 'string') return { outcome: { ok: false, problems: [answer] }, candles: 0 };
      return { outcome: { ok: true, summary: answer, fills: [] }, candles: 168 };
    }
    dispose() {}
  }
  return { ...real, BacktestRunner: FakeRunner };
});

const H = 3_600_000;
const fit = { fromMs: 1000 * H, toMs: 1168 * H };
const test = { fromMs: 1168 * H, toMs: 1336 * H };

describe('RangeSuggestionBacktest', () => {
  it('runs the pick in-sample then out-of-sample on one fetched period and shows both', async () => {
    answers[fit.fromMs] = { gridProfit: 12.5, totalPnl: 9.25, roiPct: 0.925, matchedTrades: 14 };
    answers[test.fromMs] = { gridProfit: 4, totalPnl: -6.5, roiPct: -0.65, matchedTrades: 5 };
    const strategy = { type: 'range', lower: 90800, upper: 97550, grids: 13, mode: 'arithmetic' };
    render(
      <RangeSuggestionBacktest
        symbol="BTCUSDT"
        category="spot"
        investment={1000}
        leverage={null}
        strategy={strategy}
        fit={fit}
        test={test}
      />,
    );
    const table = screen.getByRole('table', { name: 'Suggestion backtest' });
    await waitFor(() => expect(within(table).getAllByText(/\$/).length).toBe(4));
    const [, inSample, outOfSample] = within(table).getAllByRole('row');
    expect(inSample).toHaveTextContent('Picked from (in-sample)');
    expect(inSample).toHaveTextContent('+$12.50+$9.25+0.93 %14');
    expect(outOfSample).toHaveTextContent('Next period (out-of-sample)');
    expect(outOfSample).toHaveTextContent('+$4.00-$6.50-0.65 %5');
    expect(requests.map((r) => r.range)).toEqual([fit, test]);
    for (const r of requests) {
      expect(r.period).toEqual({
        symbol: 'BTCUSDT',
        category: 'spot',
        interval: '1h',
        fromMs: fit.fromMs,
        toMs: test.toMs,
      });
      expect(r.input).toEqual({
        strategy,
        symbol: 'BTCUSDT',
        category: 'spot',
        investment: 1000,
        leverage: null,
      });
    }
  });

  it("shows the engine's refusal in the row it belongs to", async () => {
    requests.length = 0;
    answers[fit.fromMs] =
      'the quantity per order is below the step of 0.00001 BTCUSDT: invest more or use fewer grids';
    answers[test.fromMs] = { gridProfit: 0, totalPnl: 0, roiPct: 0, matchedTrades: 0 };
    render(
      <RangeSuggestionBacktest
        symbol="BTCUSDT"
        category="spot"
        investment={1}
        leverage={null}
        strategy={{ type: 'range', lower: 90800, upper: 97550, grids: 13 }}
        fit={fit}
        test={test}
      />,
    );
    expect(
      await screen.findByText(
        'the quantity per order is below the step of 0.00001 BTCUSDT: invest more or use fewer grids',
      ),
    ).toBeInTheDocument();
  });
});
