import { roundToTick } from '@gridbot/shared';

/** A grid's range and grid count, as the form and the sweeps write them. */
export interface RangeValues {
  lower: number;
  upper: number;
  grids: number;
}

/**
 * A range picked on an earlier period (the sweep under a suggestion, which runs on the period the suggestion
 * rule was tried on) moved onto the range the rule suggests from the last period: each bound keeps its ratio to
 * its own period's suggested bound, on the pair's tick, and the grid count is kept. Written as picked, a range of
 * two weeks ago can lie wholly above or below today's price.
 */
export function carryRange(
  picked: RangeValues,
  earlier: { lower: number; upper: number },
  latest: { lower: number; upper: number },
  tickSize: string,
): RangeValues {
  const carried = (value: number, from: number, to: number) =>
    Number(roundToTick((value * to) / from, tickSize));
  return {
    lower: carried(picked.lower, earlier.lower, latest.lower),
    upper: carried(picked.upper, earlier.upper, latest.upper),
    grids: picked.grids,
  };
}
