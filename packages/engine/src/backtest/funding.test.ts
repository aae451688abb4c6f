/** Futures funding in backtests (docs/trading-rules.md §2.2): booked at 00:00, 08:00 and 16:00 UTC from a rates file. */
import { describe, expect, it } from 'vitest';
import { TEST_FUTURE_RULES } from '../testing/harness';
import { multigridBot } from '../testing/strategies';
import type { Candles } from './candles';
import { runBacktest } from './run-backtest';

const HOUR = 3_600_000;
const DAY1 = Date.UTC(2025, 2, 7);

/** Flat hourly candles at 100 from 22:00 the day before DAY1 to 17:00 on DAY1. */
function hourly(): Candles {
  const n = 20;
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) t[i] = DAY1 - 2 * HOUR + i * HOUR;
  const price = new Float64Array(n).fill(100);
  return { openTimeMs: t, open: price, high: price, low: price, close: price };
}

describe('funding in backtests', () => {
  it('books each funding time as its own row and in the PnL; a positive rate is paid by the long', () => {
    // 1000 margin at 2× → 20 at 100 = 2000 notional. Rates per 8 h; times jitter a few ms as Binance's do.
    const bot = multigridBot({ alloc: [1], tp: [50] }, { market: 'future', leverage: 2 });
    const funding = {
      timeMs: Float64Array.from([DAY1 - 8 * HOUR, DAY1 + 4, DAY1 + 8 * HOUR + 2, DAY1 + 16 * HOUR + 7]),
      rate: Float64Array.from([0.01, 0.0001, -0.0002, 0.0003]),
    };
    const r = runBacktest(bot, hourly(), TEST_FUTURE_RULES, { feePct: 0.05, funding });
    const rows = r.fills.filter((f) => f.side === 'FUNDING');
    // The 16:00 funding of the day before falls before the first candle: no position, nothing booked.
    expect(rows.map((f) => [new Date(f.time).toISOString().slice(11, 19), f.qty, f.quote, f.pnl])).toEqual([
      ['00:00:00', 20, 2000, -0.2],
      ['08:00:00', 20, 2000, 0.4],
      ['16:00:00', 20, 2000, -0.6],
    ]);
    expect(r.summary.funding).toBeCloseTo(-0.4, 12);
    // The only other money moved is the buy fee (2000 × 0.05 % = 1), and the report counts the fee of closing
    // the position at the last price (another 1).
    expect(r.summary.totalPnl).toBeCloseTo(-2.4, 12);
    expect(r.state.stats.datewiseProfit['2025-03-07']).toBeCloseTo(-0.4, 12);
  });

  it('books nothing on spot or while flat', () => {
    const spot = multigridBot({ alloc: [1], tp: [50] });
    const funding = { timeMs: Float64Array.from([DAY1]), rate: Float64Array.from([0.001]) };
    const r = runBacktest(spot, hourly(), TEST_FUTURE_RULES, { feePct: 0.1, funding });
    expect(r.fills.some((f) => f.side === 'FUNDING')).toBe(false);
    expect(r.summary.funding).toBe(0);
  });
});
