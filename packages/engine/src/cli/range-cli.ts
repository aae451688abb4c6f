/**
 * The backtest CLI's range grid (docs/trading-rules.md §2.6): `--strategy` with `"type": "range"` runs the
 * range backtest on the same candles and flags. `--stoploss` sets the grid's stop-loss, `--fee` the fee of
 * every fill; `--category future --leverage L` runs the futures grid (the leverage overrides the
 * strategy's) with `--funding` rates and `--mark-candles` to liquidate on; flags of the other kinds are
 * refused.
 */
import type { Candles } from '../backtest/candles';
import { runRangeBacktest, startRangeBacktest } from '../backtest/range-backtest';
import { formatRangeTable } from '../backtest/range-format';
import type { FundingRates } from '../backtest/run-backtest';
import { type BacktestArgs, UsageError } from './args';

/** A strategy file whose `type` is `range`. */
export function isRangeStrategy(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as { type?: unknown }).type === 'range';
}

/** The report to print, or the one-line reason the grid cannot start (`problem`). */
export function rangeBacktestCli(
  args: BacktestArgs,
  strategy: Record<string, unknown>,
  candles: Candles,
  funding: FundingRates | null = null,
  mark: Candles | null = null,
): { output: string } | { problem: string } {
  if (args.pause !== null || args.restart !== null || args.profitBookPct !== null)
    throw new UsageError('--pause, --restart and --profit-book do not apply to a range grid');
  const start = startRangeBacktest(
    {
      strategy: args.stoploss === null ? strategy : { ...strategy, stopLoss: args.stoploss },
      symbol: args.symbol,
      category: args.category,
      investment: args.investment as number,
      leverage: args.leverage,
    },
    candles.openTimeMs[0] as number,
    candles.open[0] as number,
  );
  if (!start.ok) {
    const problems = start.problems.join('; ');
    return { problem: start.stage === 'strategy' ? `strategy ${args.strategy}: ${problems}` : problems };
  }
  const fee = args.feePct ?? undefined;
  const r = runRangeBacktest(start.state, candles, start.rules, {
    takerFeePct: fee,
    makerFeePct: fee,
    slippageBps: args.slippageBps,
    funding,
    mark,
  });
  return {
    output: args.json
      ? `${JSON.stringify({ fills: r.fills, summary: r.summary })}\n`
      : formatRangeTable(r.fills, r.summary),
  };
}
