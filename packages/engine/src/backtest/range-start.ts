/**
 * The start of a range grid backtest (docs/trading-rules.md §2.6): the symbol's rules, the strategy checked,
 * the start refused with its reasons or the grid created at the first candle.
 */
import { findMaintBrackets, findMarketRules, type MarketRules, rangeStrategySchema } from '@gridbot/shared';
import { compileRules, type EngineRules } from '../rules';
import { exactMul } from '../strategies/range/exact';
import { createRange, type RangeState } from '../strategies/range/range.state';
import { rangeStartPrice, rangeStartProblems } from '../strategies/range/range-levels';

export interface RangeBacktestInput {
  strategy: unknown;
  symbol: string;
  category: 'spot' | 'future';
  investment: number;
  /** Futures: overrides the strategy's leverage (the CLI's `--leverage`). */
  leverage?: number | null;
}

export type RangeBacktestStart =
  | { ok: true; state: RangeState; rules: EngineRules; market: MarketRules }
  | { ok: false; stage: 'symbol' | 'strategy' | 'start'; problems: string[] };

/** The grid at the first candle, or why it cannot start there (shared by the CLI and the browser). */
export function startRangeBacktest(
  input: RangeBacktestInput,
  startTimeMs: number,
  firstPrice: number,
): RangeBacktestStart {
  const market = findMarketRules(input.symbol, input.category);
  if (!market)
    return { ok: false, stage: 'symbol', problems: [`unknown ${input.category} symbol ${input.symbol}`] };
  const parsed = rangeStrategySchema.safeParse(input.strategy);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'strategy'}: ${i.message}`);
    return { ok: false, stage: 'strategy', problems };
  }
  const rules = compileRules(market);
  const futures = input.category === 'future';
  const params =
    futures && input.leverage != null ? { ...parsed.data, leverage: input.leverage } : parsed.data;
  // Futures: the investment is margin, the orders' notional is the investment × the leverage (§2.6).
  const funds = futures ? exactMul(input.investment, params.leverage) : input.investment;
  const problems = rangeStartProblems(
    params,
    funds,
    rangeStartPrice(params, firstPrice),
    rules,
    input.category,
  );
  if (problems.length > 0) return { ok: false, stage: 'start', problems };
  const state = createRange({
    params,
    investment: input.investment,
    market: input.category,
    rules,
    startTimeMs,
    brackets: futures ? (findMaintBrackets(input.symbol) ?? null) : null,
  });
  return { ok: true, state, rules, market };
}
