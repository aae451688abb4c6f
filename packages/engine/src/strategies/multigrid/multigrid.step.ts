/**
 * Multigrid (docs/trading-rules.md §2.2): trailing take-profit per lot, trailing buy per grid.
 */
import { downLevel, reachesDown, reachesUp, upLevel } from '../../core/compare';
import type { GridBotState, TrailingBuy } from '../../core/grid-bot.state';
import type { RuleLevels } from '../../core/grid-rules';
import { type BuyTrigger, type GridHooks, stepGrid, type TakeProfitOutcome } from '../../core/grid-tick';
import { LOT_PHASE, transition } from '../../core/transitions';
import { InvariantError } from '../../errors';
import type { EngineRules } from '../../rules';
import type { Lot, StepResult, Tick } from '../../types';

/**
 * Step 3, newest lot to oldest: a lot arms when p ≥ price × (1 + tp/100) (high = p); an armed lot
 * follows the high and sells when p ≤ high × (1 − tpDown/100). With tpDown = 0 it sells on the arming tick.
 */
function takeProfit(state: GridBotState, p: number): TakeProfitOutcome | null {
  const lots = state.lots;
  let out: Lot[] | null = null;
  let sold: Lot[] | null = null;
  for (let i = lots.length - 1; i >= 0; i--) {
    const lot = lots[i] as Lot;
    let high = lot.high;
    let phase: 'Open' | 'Armed' = lot.armed ? 'Armed' : 'Open';
    if (phase === 'Open') {
      if (p < lot.tpPrice * (1 - 1e-9) || !reachesUp(p, lot.price, lot.tpPct)) continue;
      phase = transition(LOT_PHASE, 'lot', phase, 'arm') as 'Armed';
      high = p;
    } else if (p > high) {
      transition(LOT_PHASE, 'lot', phase, 'raise_high');
      high = p;
    }
    if (reachesDown(p, high, lot.tpDownPct)) {
      transition(LOT_PHASE, 'lot', phase, 'trail_hit');
      out ??= lots.slice();
      out.splice(i, 1);
      sold ??= [];
      sold.push({ ...lot, armed: true, high });
    } else if (high !== lot.high || !lot.armed) {
      out ??= lots.slice();
      out[i] = { ...lot, armed: true, high };
    }
  }
  if (out === null) return null;
  return { lots: out, sold: sold ?? [], together: false };
}

/** `takeProfit`'s levels: an open lot arms at its take-profit price; an armed lot's high follows the price up and it sells at its trailing level. */
function takeProfitLevels(state: GridBotState, levels: RuleLevels): void {
  for (const lot of state.lots) {
    if (!lot.armed) {
      levels.riseTo(lot.tpPrice);
    } else {
      levels.followsAbove(lot.high);
      levels.fallTo(downLevel(lot.high, lot.tpDownPct));
    }
  }
}

/**
 * Step 4 for grid k: arms when p ≤ base × (1 − buy[k]/100) (low = p), follows the low, buys when
 * p ≥ low × (1 + buyUp[k]/100). With buyUp = 0 it buys on the arming tick.
 */
function buyTrigger(state: GridBotState, base: number, trail: TrailingBuy, k: number, p: number): BuyTrigger {
  const params = state.params;
  if (params.type !== 'multigrid') throw new InvariantError(`multigrid step on a ${params.type} bot`);
  let low = trail.low;
  if (!trail.armed) {
    if (!reachesDown(p, base, params.buyPct[k - 1] ?? 0)) return { trail, buy: false };
    low = p;
  } else if (p < low) {
    low = p;
  }
  if (reachesUp(p, low, params.buyUpPct[k - 1] ?? 0)) return { trail, buy: true };
  return { trail: trail.armed && low === trail.low ? trail : { armed: true, low }, buy: false };
}

/** `buyTrigger`'s levels: an unarmed grid arms at its buy level; an armed one's low follows the price down and it buys on the rebound. */
function buyLevels(
  state: GridBotState,
  base: number,
  trail: TrailingBuy,
  k: number,
  levels: RuleLevels,
): void {
  const params = state.params;
  if (params.type !== 'multigrid') throw new InvariantError(`multigrid step on a ${params.type} bot`);
  if (trail.armed) {
    levels.followsBelow(trail.low);
    levels.riseTo(upLevel(trail.low, params.buyUpPct[k - 1] ?? 0));
  } else {
    levels.fallTo(downLevel(base, params.buyPct[k - 1] ?? 0));
  }
}

/** Multigrid's own rules (core/grid-tick.ts runs them; core/quiet-band.ts reads their levels). */
export const MULTIGRID_HOOKS: GridHooks = { takeProfit, takeProfitLevels, buyTrigger, buyLevels };

/** One tick of a Multigrid bot (docs/trading-rules.md §2.2, spot and futures). */
export function stepMultigrid(state: GridBotState, tick: Tick, rules: EngineRules): StepResult<GridBotState> {
  return stepGrid(state, tick, rules, MULTIGRID_HOOKS);
}
