/**
 * Start-time checks (DESIGN §2.1): every grid's planned order must reach the symbol's min notional.
 * Problems are returned, not thrown: the API turns them into the start request's error message.
 */
import type { MarketRules } from '@gridbot/shared';
import { money } from './money';
import type { EngineRules } from './rules';
import type { CycleParams } from './strategies/cycle/cycle.state';
import type { GridParams } from './strategies/strategy-params';

export interface StartProblem {
  /** The grid concerned (cycles: 1), or 0 for a problem of the whole bot. */
  grid: number;
  message: string;
}

type Rules = Pick<MarketRules | EngineRules, 'symbol' | 'market' | 'minNotional'>;

function orderProblem(
  grid: number,
  label: string,
  quote: number,
  leverage: number,
  rules: Rules,
): StartProblem | null {
  const notional = money(quote).times(leverage);
  if (notional.gte(rules.minNotional)) return null;
  const amount = notional.toDecimalPlaces(8, 1).toFixed();
  const via =
    leverage > 1 ? ` (${money(quote).toDecimalPlaces(8, 1).toFixed()} USDT margin × ${leverage})` : '';
  const market = rules.market === 'future' ? 'futures' : 'spot';
  return {
    grid,
    message: `${label} order of ${amount} USDT${via} is below the minimum order of ${rules.minNotional} USDT for ${rules.symbol} ${market}`,
  };
}

function leverageProblems(leverage: number, rules: Rules): StartProblem[] {
  if (rules.market !== 'future') return [];
  if (!Number.isInteger(leverage) || leverage < 1) {
    return [{ grid: 0, message: `Leverage must be a whole number ≥ 1, is ${leverage}` }];
  }
  return [];
}

/** Problems that stop a Multigrid or Scalping bot from starting; empty when it may start. */
export function validateGridStart(
  params: GridParams,
  investment: number,
  rules: Rules,
  leverage = 1,
): StartProblem[] {
  if (!(investment > 0)) return [{ grid: 0, message: `Investment must be > 0, is ${investment}` }];
  const problems = leverageProblems(leverage, rules);
  if (problems.length > 0) return problems;
  const lev = rules.market === 'future' ? leverage : 1;
  params.alloc.forEach((a, i) => {
    const quote = money(investment).times(a).toNumber();
    const p = orderProblem(i + 1, `Grid ${i + 1}`, quote, lev, rules);
    if (p) problems.push(p);
  });
  return problems;
}

/** Problems that stop a cycle from starting. */
export function validateCycleStart(params: CycleParams, rules: Rules, leverage = 1): StartProblem[] {
  const problems = leverageProblems(leverage, rules);
  if (!(params.amount > 0)) problems.push({ grid: 0, message: `Amount must be > 0, is ${params.amount}` });
  if (!(params.buyPrice > 0)) problems.push({ grid: 0, message: 'buy_price must be > 0' });
  if (!(params.sellPrice > params.buyPrice))
    problems.push({ grid: 0, message: 'sell_price must be above buy_price' });
  if (params.stopLoss !== null && !(params.stopLoss < params.buyPrice)) {
    problems.push({ grid: 0, message: 'Stop loss cannot be more than the buy price.' });
  }
  if (!Number.isInteger(params.cycles) || params.cycles < 1) {
    problems.push({ grid: 0, message: `no_of_cycle must be a whole number ≥ 1, is ${params.cycles}` });
  }
  if (problems.length > 0) return problems;
  const p = orderProblem(1, 'Cycle', params.amount, rules.market === 'future' ? leverage : 1, rules);
  return p ? [p] : [];
}
