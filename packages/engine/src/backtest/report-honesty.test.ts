/**
 * What the backtest report's figures mean (docs/trading-rules.md §2.1, §2.5): the annualised figure is simple
 * (ROI × 365 / days), so it is an APR; the unrealized PnL is what selling the holdings at the last price would
 * bring, so the market sell's fee is out of it; Sharpe and Sortino use whole UTC days only.
 */
import { describe, expect, it } from 'vitest';
import { TEST_RULES } from '../testing/harness';
import { multigridBot } from '../testing/strategies';
import type { Candles } from './candles';
import { summaryLines } from './format';
import { dailyRatios } from './report';
import { runBacktest } from './run-backtest';

const DAY = 86_400_000;

function flat(n: number, stepMs: number): Candles {
  const t = Float64Array.from({ length: n }, (_, i) => i * stepMs);
  const price = new Float64Array(n).fill(100);
  return { openTimeMs: t, open: price, high: price, low: price, close: price };
}

describe('backtest report', () => {
  it('calls the simple annualised return APR', () => {
    const r = runBacktest(multigridBot({ alloc: [1], tp: [50] }), flat(3, 60_000), TEST_RULES, {
      feePct: 0.1,
    });
    // ROI × 365 / max(days, 1): a 3-minute run counts as one day.
    expect(r.summary.aprPct).toBeCloseTo(r.summary.roiPct * 365, 6);
    const lines = summaryLines(r.summary);
    expect(lines.some((l) => l.startsWith('APR '))).toBe(true);
    expect(lines.some((l) => l.startsWith('APY'))).toBe(false);
  });

  it('takes the fee of selling the holdings at the last price out of the unrealized PnL', () => {
    // 10 bought at 100 (commission 0.01 in the coin): 9.99 held at 100 = 999 for 1000 spent, and selling them
    // would cost 0.1 % of 999 = 0.999.
    const r = runBacktest(multigridBot({ alloc: [1], tp: [50] }), flat(3, 60_000), TEST_RULES, {
      feePct: 0.1,
    });
    expect(r.summary.unrealizedPnl).toBeCloseTo(999 - 1000 - 0.999, 9);
    expect(r.summary.totalPnl).toBeCloseTo(-1.999, 9);
    expect(r.summary.roiPct).toBeCloseTo(-0.1999, 9);
  });

  it('counts only whole UTC days as daily returns in Sharpe and Sortino', () => {
    // Starts at 10:30 on day 0 and ends at 12:00 on day 3: the first and last parts are not days.
    const curve = [
      { time: 10.5 * 3_600_000, equity: 1000 },
      { time: DAY, equity: 1300 },
      { time: 2 * DAY, equity: 1326 },
      { time: 3 * DAY, equity: 1312.74 },
      { time: 3 * DAY + 12 * 3_600_000, equity: 900 },
    ];
    const returns = [1326 / 1300 - 1, 1312.74 / 1326 - 1];
    const mean = (returns[0]! + returns[1]!) / 2;
    const sd = Math.sqrt(((returns[0]! - mean) ** 2 + (returns[1]! - mean) ** 2) / 1);
    const downside = Math.sqrt(Math.min(returns[1]!, 0) ** 2 / 2);
    const { sharpe, sortino } = dailyRatios(curve);
    expect(sharpe).toBeCloseTo((mean / sd) * Math.sqrt(365), 3);
    expect(sortino).toBeCloseTo((mean / downside) * Math.sqrt(365), 3);
  });
});
