/**
 * The range grid's parameter sweep: the range widened and narrowed about its middle × the grid count, around a
 * starting grid (the suggestion), at most MAX_SWEEP runs.
 */
import { roundToTick } from '@gridbot/shared';
import { MAX_SWEEP } from './sweep';

/** The range's width against the starting one. */
export const RANGE_WIDTHS = [0.6, 0.8, 1, 1.2, 1.4] as const;
/** The grid count against the starting one. */
export const GRID_FACTORS = [0.5, 0.75, 1, 1.25, 1.5] as const;
const MIN_GRIDS = 2;
const MAX_GRIDS = 200;

export interface RangeCell {
  /** Index into the widths and the grid counts. */
  row: number;
  col: number;
  lower: number;
  upper: number;
  grids: number;
}

/** The grid counts of the sweep: each factor of `grids`, rounded, within 2–200, without repeats. */
export function gridCounts(grids: number): number[] {
  const counts = GRID_FACTORS.map((f) => Math.min(MAX_GRIDS, Math.max(MIN_GRIDS, Math.round(grids * f))));
  return [...new Set(counts)];
}

/**
 * Every (width, grid count): `lower` and `upper` moved apart or together about their middle by the width, each
 * rounded to the tick; a width whose lower would not stay above zero is left out.
 */
export function rangeCells(
  start: { lower: number; upper: number; grids: number },
  tickSize: string,
): RangeCell[] {
  const middle = (start.lower + start.upper) / 2;
  const half = (start.upper - start.lower) / 2;
  const counts = gridCounts(start.grids);
  const cells: RangeCell[] = [];
  RANGE_WIDTHS.forEach((w, row) => {
    const lower = roundToTick(middle - half * w, tickSize).toNumber();
    const upper = roundToTick(middle + half * w, tickSize).toNumber();
    if (!(lower > 0) || !(upper > lower)) return;
    counts.forEach((grids, col) => {
      cells.push({ row, col, lower, upper, grids });
    });
  });
  if (cells.length > MAX_SWEEP) throw new RangeError(`a sweep runs at most ${MAX_SWEEP} combinations`);
  return cells;
}
