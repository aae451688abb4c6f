/**
 * The start of a Multigrid or Scalping backtest from a stored strategy, shared by the backtest CLI and the
 * browser's backtest worker so that both run the same bot on the same candles (docs/trading-rules.md §2.5):
 * the strategy parsed and checked as a start is, the bot created at the first candle, fees by market.
 */
import { DEFAULT_FEE_PCT, findMaintBrackets, findMarketRules, type MarketRules } from '@gridbot/shared';
import { createGridBot, type GridBotState } from '../core/grid-bot.state';
import { compileRules, type EngineRules } from '../rules';
import { parseStrategy } from '../strategies/parse-strategy';
import { validateGridStart } from '../validate';

export interface GridBacktestInput {
  /** A strategy in the stored format (parseStrategy), with its `type`. */
  strategy: unknown;
  symbol: string;
  category: 'spot' | 'future';
  investment: number;
  /** Futures only; 1 on spot. */
  leverage?: number | null;
  stoplossPrice?: number | null;
  pausePrice?: number | null;
  restartPrice?: number | null;
  profitBookPct?: number | null;
  /** Percent per fill; default by market (docs/trading-rules.md §2.1). */
  feePct?: number | null;
}

export type GridBacktestStart =
  | { ok: true; state: GridBotState; rules: EngineRules; market: MarketRules; feePct: number }
  /** `strategy`: the strategy itself is invalid; `start`: it cannot start with this amount at this price. */
  | { ok: false; stage: 'symbol' | 'strategy' | 'start'; problems: string[] };

/** The bot at the first candle (open time and open price), or why it could not start there. */
export function startGridBacktest(
  input: GridBacktestInput,
  startTimeMs: number,
  firstPrice: number,
): GridBacktestStart {
  const market = findMarketRules(input.symbol, input.category);
  if (!market)
    return { ok: false, stage: 'symbol', problems: [`unknown ${input.category} symbol ${input.symbol}`] };
  const parsed = parseStrategy(input.strategy);
  if (!parsed.ok) return { ok: false, stage: 'strategy', problems: parsed.errors };
  const leverage = input.category === 'future' ? (input.leverage ?? 1) : 1;
  const problems = validateGridStart(parsed.value, input.investment, market, leverage, firstPrice);
  if (problems.length > 0) return { ok: false, stage: 'start', problems: problems.map((p) => p.message) };
  const rules = compileRules(market);
  const state = createGridBot({
    params: parsed.value,
    investment: input.investment,
    market: input.category,
    leverage,
    startTimeMs,
    maintMarginRate: rules.maintMarginRate,
    maintBrackets: findMaintBrackets(input.symbol),
    settings: {
      stoplossPrice: input.stoplossPrice ?? null,
      pausePrice: input.pausePrice ?? null,
      restartPrice: input.restartPrice ?? null,
      profitBookPct: input.profitBookPct ?? null,
    },
  });
  return { ok: true, state, rules, market, feePct: input.feePct ?? DEFAULT_FEE_PCT[input.category] };
}
