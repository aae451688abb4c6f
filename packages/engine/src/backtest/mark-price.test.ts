/**
 * Funding and liquidation on the mark price (docs/trading-rules.md §2.2). Binance USDⓈ-M futures: "Funding
 * Amount = Nominal Value of Positions × Funding Rate", with "Nominal Value of Positions = Mark Price × Size of a
 * Contract" (Binance FAQ "Introduction to Binance Futures Funding Rates"); a position is liquidated when the
 * mark price reaches its liquidation price, whose isolated one-way formula subtracts the bracket's maintenance
 * amount cumB (Binance FAQ "How to Calculate Liquidation Price of USDⓈ-M Futures Contracts",
 * https://www.binance.com/en/support/faq/b3c689c1f50a44cabb3a84e663b81d93; implemented once in
 * packages/shared/src/markets/liquidation.ts). A backtest given mark-price candles (`mark`, same open times)
 * uses them for both; without them the mark is the last price.
 */
import { describe, expect, it } from 'vitest';
import { TEST_FUTURE_RULES } from '../testing/harness';
import { multigridBot } from '../testing/strategies';
import type { Candles } from './candles';
import { runBacktest } from './run-backtest';

const HOUR = 3_600_000;
const DAY1 = Date.UTC(2025, 2, 7);

function hourly(rows: readonly [number, number, number, number][]): Candles {
  return {
    openTimeMs: Float64Array.from(rows.map((_, i) => DAY1 - HOUR + i * HOUR)),
    open: Float64Array.from(rows.map((r) => r[0])),
    high: Float64Array.from(rows.map((r) => r[1])),
    low: Float64Array.from(rows.map((r) => r[2])),
    close: Float64Array.from(rows.map((r) => r[3])),
  };
}

const flat = (p: number, n: number) =>
  Array.from({ length: n }, () => [p, p, p, p] as [number, number, number, number]);

describe('mark price in backtests', () => {
  it('charges funding on the mark price at the funding time, not the last price', () => {
    // 1000 margin at 2× → 20 at 100. At 00:00 the last price opens at 100, the mark at 101: 20 × 101 × 0.0001.
    const bot = multigridBot({ alloc: [1], tp: [50] }, { market: 'future', leverage: 2 });
    const last = hourly(flat(100, 3));
    const mark = hourly([
      [100, 100, 100, 100],
      [101, 101, 101, 101],
      [101, 101, 101, 101],
    ]);
    const funding = { timeMs: Float64Array.from([DAY1]), rate: Float64Array.from([0.0001]) };
    const r = runBacktest(bot, last, TEST_FUTURE_RULES, { feePct: 0.05, funding, mark });
    const rows = r.fills.filter((f) => f.side === 'FUNDING');
    expect(rows.map((f) => [f.price, f.quote, f.pnl])).toEqual([[101, 2020, -0.202]]);
  });

  it('liquidates when the mark price reaches the liquidation price, though the last price does not', () => {
    // 5×: 10 at 100 with 200 margin, liquidation (1000 − 200) / (10 × 0.995) = 80.40201006.
    const bot = multigridBot({ alloc: [1], tp: [50] }, { market: 'future', leverage: 5, investment: 200 });
    const last = hourly([
      [100, 100, 100, 100],
      [100, 100, 81, 81],
      [81, 81, 81, 81],
    ]);
    const mark = hourly([
      [100, 100, 100, 100],
      [100, 100, 80.3, 80.5],
      [80.5, 80.5, 80.5, 80.5],
    ]);
    const r = runBacktest(bot, last, TEST_FUTURE_RULES, { feePct: 0.05, mark });
    expect(r.summary.stopReason).toBe('liquidated');
    expect(r.fills.filter((f) => f.side === 'sell').map((f) => f.price)).toEqual([80.40201006]);
  });

  it('keeps the position while the mark stays above it, though the last price dips below', () => {
    const bot = multigridBot({ alloc: [1], tp: [50] }, { market: 'future', leverage: 5, investment: 200 });
    const last = hourly([
      [100, 100, 100, 100],
      [100, 100, 79, 82],
      [82, 82, 82, 82],
    ]);
    const mark = hourly([
      [100, 100, 100, 100],
      [100, 100, 81, 82],
      [82, 82, 82, 82],
    ]);
    const r = runBacktest(bot, last, TEST_FUTURE_RULES, { feePct: 0.05, mark });
    expect(r.summary.stopReason).toBeNull();
    expect(r.summary.openGrids).toBe(1);
    // Without mark candles the mark is the last price: the dip to 79 liquidates.
    expect(runBacktest(bot, last, TEST_FUTURE_RULES, { feePct: 0.05 }).summary.stopReason).toBe('liquidated');
  });
});
