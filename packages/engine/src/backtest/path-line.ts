/**
 * One line of the path model (docs/trading-rules.md §2.5): on a line from the current price `cur` to `b`, the level
 * where the bot's next rule becomes true and the first price on the symbol's tick grid at or beyond it. The
 * backtest walks its candles' lines with it and the bot runtime walks the line from its last price to each
 * new feed price with it, so a paper bot fed the backtest's path acts, and fills, where the backtest does.
 */
import { decimalsOf } from '@gridbot/shared';
import { type EngineState, eventBandOf } from '../engine';

/** A level within this share of its size from a tick is on that tick (as in `fillPriceAgainst`). */
const ON_TICK = 1e-9;

/** The symbol's tick size as a number and its decimals, for `firstTickBeyond`. */
export interface TickGrid {
  tick: number;
  decimals: number;
}

export function tickGridOf(tickSize: string): TickGrid {
  return { tick: Number(tickSize), decimals: decimalsOf(tickSize) };
}

/**
 * The level of the next event strictly between `cur` and `b` on the line towards `b` (the edge of the
 * state's event band, core/quiet-band.ts), or NaN when the rest of the line holds none.
 */
export function nextEventLevel(state: EngineState, cur: number, b: number): number {
  const band = eventBandOf(state);
  const up = b > cur;
  const e = up ? band.hi : band.lo;
  return (up ? e > cur && e < b : e < cur && e > b) ? e : Number.NaN;
}

/**
 * The first price on the tick grid at or beyond level `e` in the direction of the line (prices trade on
 * ticks, so that is the first price a live bot sees where the rule is true), never behind the current
 * price and never past the line's end.
 */
export function firstTickBeyond(e: number, cur: number, b: number, grid: TickGrid): number {
  const up = b > cur;
  const tick = grid.tick;
  const units = e / tick;
  const near = Math.round(units);
  const k =
    Math.abs(units - near) <= Math.abs(units) * ON_TICK ? near : up ? Math.ceil(units) : Math.floor(units);
  let x = Number((k * tick).toFixed(grid.decimals));
  // A level a hair beyond a tick that the engine's exact comparison does not count as reached.
  if (up ? x <= cur : x >= cur) x = Number(((up ? near + 1 : near - 1) * tick).toFixed(grid.decimals));
  return up ? Math.min(x, b) : Math.max(x, b);
}
