import {
  type EngineRules,
  type EngineState,
  firstTickBeyond,
  type Intent,
  nextEventLevel,
  tickGridOf,
} from '@gridbot/engine';

/** Events on one line before its end is stepped regardless (a guard, as in the backtest). */
const MAX_EVENTS_PER_LINE = 10_000;

/** What a step on a price's line decided: the intents, the tick they were decided at and the level they fill at. */
export interface LineDecision {
  intents: readonly Intent[];
  price: number;
  level: number;
}

/**
 * Tags the intents decided on a price's line with the level they fill at (docs/trading-rules.md §2.5): an event's
 * level (the bot saw the crossing on the first tick past it, but its market order crosses the spread), or the
 * line's end when the decision was taken there. The paper exchange fills them there, as the backtest does,
 * whatever its feed quotes by the time the order arrives.
 */
export function atLevel(intents: readonly Intent[], level: number): readonly Intent[] {
  return intents.map((i) => (i.type === 'RecordLiquidation' ? i : { ...i, eventPrice: level }));
}

/**
 * Steps the engine along the line from the price it last saw (`from`; null: none yet) to `to` as the backtest
 * walks its path (docs/trading-rules.md §2.5, one implementation: `nextEventLevel` and `firstTickBeyond`): at
 * the first tick at or beyond each event level on the way, then at `to`. It stops at the first step that
 * decides something and answers that decision (null: the whole line decided nothing). `advance` steps the
 * engine on one price and answers its intents.
 */
export function stepAlongLine(
  state: () => EngineState,
  rules: EngineRules,
  from: number | null,
  to: number,
  advance: (price: number) => readonly Intent[],
): LineDecision | null {
  let cur = from;
  if (cur !== null && cur !== to && !lineIsQuiet(state(), cur, to)) {
    const grid = tickGridOf(rules.tickSize);
    for (let k = 0; k < MAX_EVENTS_PER_LINE; k++) {
      const e = nextEventLevel(state(), cur, to);
      if (Number.isNaN(e)) break;
      const x = firstTickBeyond(e, cur, to, grid);
      const intents = advance(x);
      if (intents.length > 0) return { intents: atLevel(intents, e), price: x, level: e };
      cur = x;
    }
  }
  const intents = advance(to);
  return intents.length > 0 ? { intents: atLevel(intents, to), price: to, level: to } : null;
}

/**
 * Whether no rule of a grid bot can fire on the line from `from` to `to`: both ends inside its quiet band
 * (core/quiet-band.ts), an interval, so the whole line is. Nearly every tick is so.
 */
export function lineIsQuiet(state: EngineState, from: number, to: number): boolean {
  if (state.kind === 'cycle') return false;
  const { lo, hi } = state.quiet;
  return from > lo && from < hi && to > lo && to < hi;
}
