/**
 * Scalping (docs/trading-rules.md §2.3): one take-profit on the average entry of all open lots, buys without trailing.
 */
import { downLevel, reachesDown, reachesUpOnAverage, upLevel } from '../../core/compare';
import type { GridBotState, TrailingBuy } from '../../core/grid-bot.state';
import type { RuleLevels } from '../../core/grid-rules';
import { type BuyTrigger, type GridHooks, stepGrid, type TakeProfitOutcome } from '../../core/grid-tick';
import { newestFirst } from '../../core/intents';
import { InvariantError } from '../../errors';
import type { EngineRules } from '../../rules';
import type { StepResult, Tick } from '../../types';

/** p ≥ avgEntry × (1 + tp/100) → sell every lot in one order (one cycle booked). */
function takeProfit(state: GridBotState, p: number): TakeProfitOutcome | null {
  const params = state.params;
  if (params.type !== 'scalping') throw new InvariantError(`scalping step on a ${params.type} bot`);
  // Nothing is pending during a step, so the open totals are exactly the stack's (Σ qty, Σ quote).
  const { openQty, openQuote } = state.account;
  if (!reachesUpOnAverage(p, openQty, openQuote, params.tpPct)) return null;
  return { lots: [], sold: newestFirst(state.lots), together: true };
}

/** `takeProfit`'s level: the average entry plus tp % (nothing to sell without a position). */
function takeProfitLevels(state: GridBotState, levels: RuleLevels): void {
  const params = state.params;
  if (params.type !== 'scalping') throw new InvariantError(`scalping step on a ${params.type} bot`);
  const { openQty, openQuote } = state.account;
  if (openQty > 0) levels.riseTo(upLevel(openQuote / openQty, params.tpPct));
}

/** p ≤ base × (1 − buy[k]/100) buys grid k at once. */
function buyTrigger(state: GridBotState, base: number, trail: TrailingBuy, k: number, p: number): BuyTrigger {
  return { trail, buy: reachesDown(p, base, state.params.buyPct[k - 1] ?? 0) };
}

/** `buyTrigger`'s level. */
function buyLevels(
  state: GridBotState,
  base: number,
  _trail: TrailingBuy,
  k: number,
  levels: RuleLevels,
): void {
  levels.fallTo(downLevel(base, state.params.buyPct[k - 1] ?? 0));
}

/** Scalping's own rules (core/grid-tick.ts runs them; core/quiet-band.ts reads their levels). */
export const SCALPING_HOOKS: GridHooks = { takeProfit, takeProfitLevels, buyTrigger, buyLevels };

/** One tick of a Scalping bot (docs/trading-rules.md §2.3). */
export function stepScalping(state: GridBotState, tick: Tick, rules: EngineRules): StepResult<GridBotState> {
  return stepGrid(state, tick, rules, SCALPING_HOOKS);
}
