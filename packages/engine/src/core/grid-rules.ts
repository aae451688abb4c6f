/**
 * The rules of docs/trading-rules.md §2.2 that Multigrid and Scalping share, each written once with the price
 * level at which it fires: the tick (grid-tick.ts) asks whether a rule fires at a price, the quiet and event
 * bands (quiet-band.ts) ask where it would. The strategies' own rules pair the same way in their `GridHooks`.
 */

import { heldCost, heldQty } from '../pnl/pnl';
import type { EngineRules } from '../rules';
import type { Lot, Stats } from '../types';
import { pnlReachesPct, pnlTarget, pnlTargetPrice } from './compare';
import type { GridBotState } from './grid-bot.state';

/**
 * Where a state's rules fire, told to the band being built: a rule fires at or beyond its level; state that
 * merely follows the path (a trailing high or low, peak equity and drawdown) changes beyond its level.
 */
export interface RuleLevels {
  /** A rule fires once the price falls to `level`. */
  fallTo(level: number): void;
  /** A rule fires once the price rises to `level`. */
  riseTo(level: number): void;
  /** A rule fires at any price. */
  always(): void;
  /** Path-following state changes below `level`. */
  followsBelow(level: number): void;
  /** Path-following state changes above `level`. */
  followsAbove(level: number): void;
  /** Path-following state changes at any price. */
  followsAlways(): void;
}

export type Exit = 'manual_sell' | 'stoploss' | 'pause' | 'profit_book' | 'liquidated';

/**
 * First matching risk exit of docs/trading-rules.md §2.2 step 1 (a stop-and-sell request comes first). The
 * liquidation is on the `mark` price (Binance liquidates on it; the price where there is none). With
 * `rules.liquidationFromExchange` the liquidation is not one: the exchange reports it (§3).
 */
export function riskExit(
  state: GridBotState,
  p: number,
  mark: number,
  rules?: Pick<EngineRules, 'liquidationFromExchange'>,
): Exit | null {
  if (state.exitRequest !== null) return 'manual_sell';
  const s = state.settings;
  const liq = rules?.liquidationFromExchange ? 0 : openLiqPrice(state);
  if (s.stoplossPrice !== null && p <= s.stoplossPrice) {
    // Both levels under one tick: the falling price crossed the higher one first (docs/trading-rules.md §2.2).
    return liq > 0 && mark <= liq && liq >= s.stoplossPrice ? 'liquidated' : 'stoploss';
  }
  if (s.pausePrice !== null && p >= s.pausePrice) return 'pause';
  const a = state.account;
  if (
    s.profitBookPct !== null &&
    pnlReachesPct(a.bookedProfit, heldQty(a), heldCost(a), p, s.profitBookPct, a.investment)
  ) {
    return 'profit_book';
  }
  if (liq > 0 && mark <= liq) return 'liquidated';
  return null;
}

/** The levels of `riskExit`'s price rules (a stop-and-sell request is not one: the bands leave it out). */
export function riskLevels(state: GridBotState, levels: RuleLevels): void {
  const s = state.settings;
  const a = state.account;
  if (s.stoplossPrice !== null) levels.fallTo(s.stoplossPrice);
  if (s.pausePrice !== null) levels.riseTo(s.pausePrice);
  if (s.profitBookPct !== null) {
    const q = heldQty(a);
    if (q > 0) levels.riseTo(pnlTargetPrice(a.bookedProfit, q, heldCost(a), s.profitBookPct, a.investment));
    else if (a.bookedProfit >= pnlTarget(s.profitBookPct, a.investment)) levels.always();
  }
  const liq = openLiqPrice(state);
  if (liq > 0) levels.fallTo(liq);
}

/** The liquidation price while a futures position is open, else 0. */
export function openLiqPrice(state: GridBotState): number {
  const a = state.account;
  return a.liqPrice > 0 && a.openQty > 0 ? a.liqPrice : 0;
}

/** Step 2: the price at or below which a paused bot goes Live again; null while it is not paused or has none. */
export function restartLevel(state: GridBotState): number | null {
  return state.status === 'Pause' ? state.settings.restartPrice : null;
}

/**
 * Step 4: the grid that buys next on the stack `lots`, or 0 when none may (all grids bought, overbuy
 * protection, or an empty stack while new cycles are held back). On an empty stack grid 1 buys at market.
 */
export function nextGrid(state: GridBotState, lots: readonly Lot[]): number {
  if (lots.length === 0) return state.settings.newCyclesAllowed ? 1 : 0;
  const k = lots.length + 1;
  if (k > state.params.grids) return 0;
  const ob = state.settings.overbuy;
  if (ob.active && ob.value !== null && k > ob.value) return 0;
  return k;
}

/** Peak equity and max drawdown, updated only when they change. */
export function trackDrawdown(stats: Stats, equity: number): Stats {
  if (equity > stats.peakEquity) return { ...stats, peakEquity: equity };
  const dd = stats.peakEquity > 0 ? ((stats.peakEquity - equity) / stats.peakEquity) * 100 : 0;
  return dd > stats.maxDrawdownPct ? { ...stats, maxDrawdownPct: dd } : stats;
}

/** Where `trackDrawdown` changes the stats: above the peak's price, below the worst drawdown's. */
export function drawdownLevels(state: GridBotState, levels: RuleLevels): void {
  const a = state.account;
  const q = heldQty(a);
  // Equity is base + q × p (pnl.ts equityAt).
  const base = a.investment + a.bookedProfit - heldCost(a);
  const peak = state.stats.peakEquity;
  const trough = peak * (1 - state.stats.maxDrawdownPct / 100);
  if (q > 0) {
    levels.followsAbove((peak - base) / q);
    levels.followsBelow((trough - base) / q);
  } else if (base > peak || base < trough) {
    levels.followsAlways();
  }
}
