/**
 * The worker's range grid backtest (docs/trading-rules.md §2.6): the engine's `RangeBacktest` started by
 * `startRangeBacktest` exactly as the backtest CLI starts it, fed the candles in chunks so the worker can report
 * progress. Pure: runs in a Web Worker and in tests.
 */
import {
  type FundingRates,
  RangeBacktest,
  type RangeBacktestInput,
  type RangeBacktestSummary,
  type RangeFillRecord,
  startRangeBacktest,
} from '@gridbot/engine';
import { type CandleColumns, candlesAt } from '@gridbot/shared';
import { CHUNK_CANDLES } from './backtest-core';

export type RangeOutcome =
  | { ok: true; summary: RangeBacktestSummary; fills: RangeFillRecord[] }
  | { ok: false; problems: string[] };

/** Runs the range grid over the candles; `onProgress(done, total)` after each chunk. */
export function runRangeJob(
  input: RangeBacktestInput,
  candles: CandleColumns,
  onProgress?: (done: number, total: number) => void,
  options: { record?: boolean; funding?: FundingRates | null; chunk?: number } = {},
): RangeOutcome {
  const n = candles.openTimeMs.length;
  if (n === 0) return { ok: false, problems: ['No candles to backtest.'] };
  const start = startRangeBacktest(input, candles.openTimeMs[0] as number, candles.open[0] as number);
  if (!start.ok) return { ok: false, problems: start.problems };
  const run = new RangeBacktest(start.state, start.rules, {
    record: options.record !== false,
    funding: options.funding ?? null,
  });
  const chunk = options.chunk ?? CHUNK_CANDLES;
  for (let a = 0; a < n; a += chunk) {
    const b = Math.min(n, a + chunk);
    run.feed(candlesAt(candles, a, b));
    onProgress?.(b, n);
  }
  const result = run.finish();
  return { ok: true, summary: result.summary, fills: result.fills };
}
