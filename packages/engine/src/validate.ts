/**
 * Start-time checks (docs/trading-rules.md §2.1): every grid's order must reach the symbol's min notional as it will
 * be sent: its quantity rounded down to the step at the current price (when known), times leverage.
 * Problems are returned, not thrown: the API turns them into the start request's error message.
 */
import type { MarketRules } from '@gridbot/shared';
import { floorToStep, money } from './money';
import type { EngineRules } from './rules';
import type { CycleParams } from './strategies/cycle/cycle.state';
import type { GridParams } from './strategies/strategy-params';

export interface StartProblem {
  /** The grid concerned (cycles: 1), or 0 for a problem of the whole bot. */
  grid: number;
  message: string;
}

type Rules = Pick<MarketRules | EngineRules, 'symbol' | 'market' | 'minNotional' | 'stepSize'>;

function orderProblem(
  grid: number,
  label: string,
  quote: number,
  leverage: number,
  rules: Rules,
  price: number | null,
): StartProblem | null {
  const planned = money(quote).toDecimalPlaces(8, 1).times(leverage);
  const qty = price !== null && price > 0 ? floorToStep(planned.dividedBy(price), rules.stepSize) : null;
  const notional = qty === null ? planned : qty.times(price as number);
  if (notional.gte(rules.minNotional)) return null;
  const amount = notional.toDecimalPlaces(8, 1).toFixed();
  const parts: string[] = [];
  if (leverage > 1) parts.push(`${money(quote).toDecimalPlaces(8, 1).toFixed()} USDT margin × ${leverage}`);
  if (qty !== null && !notional.eq(planned)) {
    parts.push(
      `${qty.toFixed()} ${rules.symbol.replace(/USDT$/, '')} after rounding to the step ${rules.stepSize} at ${price} USDT`,
    );
  }
  const via = parts.length > 0 ? ` (${parts.join(', ')})` : '';
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

/**
 * Problems that stop a Multigrid or Scalping bot from starting; empty when it may start. With the
 * current `price`, each grid's quantity is rounded to the step as its order will be (the rounding
 * loses at most one step × price, most at the highest price a grid buys at: the current one).
 */
export function validateGridStart(
  params: GridParams,
  investment: number,
  rules: Rules,
  leverage = 1,
  price: number | null = null,
): StartProblem[] {
  if (!(investment > 0)) return [{ grid: 0, message: `Investment must be > 0, is ${investment}` }];
  const problems = leverageProblems(leverage, rules);
  if (problems.length > 0) return problems;
  const lev = rules.market === 'future' ? leverage : 1;
  params.alloc.forEach((a, i) => {
    const quote = money(investment).times(a).toNumber();
    const p = orderProblem(i + 1, `Grid ${i + 1}`, quote, lev, rules, price);
    if (p) problems.push(p);
  });
  return problems;
}

/** Problems that stop a cycle from starting (its quantity rounded to the step at its buy price). */
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
  const lev = rules.market === 'future' ? leverage : 1;
  const p = orderProblem(1, 'Cycle', params.amount, lev, rules, params.buyPrice);
  return p ? [p] : [];
}

/**
 * What starting a bot of `investment` takes from the wallet at most, fees included (docs/trading-rules.md §2.1): on
 * spot every grid's quote (a buy's fee comes out of the coin bought, as on Binance); on futures every grid's
 * margin plus the fee on its notional (margin × leverage).
 */
export function startCostWithFees(
  investment: number,
  market: 'spot' | 'future',
  leverage: number,
  feePct: number,
): number {
  if (market === 'spot') return investment;
  const notional = money(investment).times(leverage);
  return money(investment).plus(notional.times(feePct).dividedBy(100)).toNumber();
}
