/**
 * The trader's commands to a running range grid (docs/trading-rules.md §2.6): stop (every order cancelled, with
 * or without selling the coin / closing the position) and the edit of its stops and trailing.
 */
import type { RangeStrategy } from '@gridbot/shared';
import type { EngineRules } from '../../rules';
import { type RangeState, withBand } from './range.state';
import { type RangeStepResult, stopGrid, trailDownLevel, trailLevel } from './range.step';

/**
 * The trader stops the grid at price `p`: every resting order is cancelled; with `sell` the coin is sold at
 * market (futures: the position closed reduce-only), reason `manual_sell`, else `manual` and the coin stays.
 * A stopped grid stays as it is.
 */
export function stopRange(s: RangeState, p: number, sell: boolean, rules: EngineRules): RangeStepResult {
  if (s.status === 'Stopped') return { state: s, intents: [] };
  return stopGrid(s, p, sell ? 'manual_sell' : 'manual', rules, sell);
}

/** What a running grid lets the trader change: absent fields stay, null clears. */
export type RangeEdit = Partial<
  Pick<
    RangeStrategy,
    | 'stopLoss'
    | 'takeProfit'
    | 'sellOnStop'
    | 'trailingUp'
    | 'trailingUpLimit'
    | 'trailingDown'
    | 'trailingDownLimit'
  >
>;

/** The grid with its stops and trailing changed; the levels where it trails are worked out again. */
export function editRange(s: RangeState, edit: RangeEdit): RangeState {
  const params = { ...s.params };
  for (const [key, value] of Object.entries(edit) as [keyof RangeEdit, unknown][]) {
    if (value === undefined) continue;
    (params as Record<string, unknown>)[key] = value;
  }
  const next: RangeState = { ...s, params };
  if (s.status === 'Live') {
    next.trailUpAt = trailLevel(next, s.offset);
    if (s.futures !== undefined) next.futures = { ...s.futures, trailDownAt: trailDownLevel(next, s.offset) };
  }
  return withBand(next);
}

/**
 * A state read back from JSON: the levels that can never be reached (±Infinity: no trailing, an empty band) are
 * null there. They are worked out again from the state, so a grid loaded after a restart trails only as its
 * strategy says.
 */
export function reviveRange(s: RangeState): RangeState {
  const next: RangeState = { ...s };
  if (typeof s.trailUpAt !== 'number')
    next.trailUpAt = s.status === 'Live' ? trailLevel(s, s.offset) : Number.POSITIVE_INFINITY;
  const f = s.futures;
  if (f !== undefined && typeof f.trailDownAt !== 'number')
    next.futures = {
      ...f,
      trailDownAt: s.status === 'Live' ? trailDownLevel(s, s.offset) : Number.NEGATIVE_INFINITY,
    };
  return withBand(next);
}
