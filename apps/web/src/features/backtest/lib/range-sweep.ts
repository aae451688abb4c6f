/**
 * The range grid's parameter sweep (docs/product.md, Backtest; docs/trading-rules.md §2.6): every lower price ×
 * upper price × grid count of the axes the user sets, at most MAX_SWEEP runs. The heatmap's rows are the
 * (lower, upper) pairs, its columns the grid counts.
 */
import { roundToTick } from '@gridbot/shared';
import { MAX_SWEEP } from './sweep';

/** Lower and upper prices each take this many values; grid counts at most GRID_STEPS (4 × 4 × 6 = 96 runs). */
export const PRICE_STEPS = 4;
export const GRID_STEPS = 6;
const MIN_GRIDS = 2;
const MAX_GRIDS = 200;

/** The sweep's bounds: each axis from → to (prices in the pair's quote, grid counts whole). */
export interface RangeSweepAxes {
  lowerFrom: number;
  lowerTo: number;
  upperFrom: number;
  upperTo: number;
  gridsFrom: number;
  gridsTo: number;
}

export interface RangeCell {
  /** Heatmap row: the index of the (lower, upper) pair among `rangeRows`. */
  row: number;
  /** Heatmap column: the index of the grid count. */
  col: number;
  lower: number;
  upper: number;
  grids: number;
}

/**
 * Bounds around a grid: its lower and upper each a quarter of its width either side (so every lower stays below
 * every upper), its grid count from half to one and a half times, within 2–200.
 */
export function axesAround(grid: { lower: number; upper: number; grids: number }): RangeSweepAxes {
  const quarter = (grid.upper - grid.lower) / 4;
  return {
    lowerFrom: Math.max(grid.lower - quarter, grid.lower / 2),
    lowerTo: grid.lower + quarter,
    upperFrom: grid.upper - quarter,
    upperTo: grid.upper + quarter,
    gridsFrom: clampGrids(Math.round(grid.grids / 2)),
    gridsTo: clampGrids(Math.round(grid.grids * 1.5)),
  };
}

const clampGrids = (n: number) => Math.min(MAX_GRIDS, Math.max(MIN_GRIDS, n));

/** `count` prices from `from` to `to`, evenly spaced, each on the tick, without repeats. */
export function priceSteps(from: number, to: number, count: number, tickSize: string): number[] {
  const lo = Math.min(from, to);
  const hi = Math.max(from, to);
  const n = hi > lo ? count : 1;
  const values = Array.from({ length: n }, (_, i) =>
    roundToTick(n === 1 ? lo : lo + ((hi - lo) * i) / (n - 1), tickSize).toNumber(),
  );
  return [...new Set(values)].filter((v) => v > 0);
}

/** Up to GRID_STEPS whole grid counts from `from` to `to`, evenly spaced, within 2–200, without repeats. */
export function gridSteps(from: number, to: number): number[] {
  const lo = clampGrids(Math.round(Math.min(from, to)));
  const hi = clampGrids(Math.round(Math.max(from, to)));
  const n = Math.min(GRID_STEPS, hi - lo + 1);
  if (n <= 1) return [lo];
  return [...new Set(Array.from({ length: n }, (_, i) => Math.round(lo + ((hi - lo) * i) / (n - 1))))];
}

/** The heatmap's rows: every lower × upper with the lower below the upper, lowest lower first. */
export function rangeRows(axes: RangeSweepAxes, tickSize: string): { lower: number; upper: number }[] {
  const lowers = priceSteps(axes.lowerFrom, axes.lowerTo, PRICE_STEPS, tickSize);
  const uppers = priceSteps(axes.upperFrom, axes.upperTo, PRICE_STEPS, tickSize);
  return lowers.flatMap((lower) =>
    uppers.filter((upper) => upper > lower).map((upper) => ({ lower, upper })),
  );
}

/** Every cell of the sweep, row by row. */
export function rangeCells(axes: RangeSweepAxes, tickSize: string): RangeCell[] {
  const counts = gridSteps(axes.gridsFrom, axes.gridsTo);
  const cells = rangeRows(axes, tickSize).flatMap(({ lower, upper }, row) =>
    counts.map((grids, col) => ({ row, col, lower, upper, grids })),
  );
  if (cells.length > MAX_SWEEP) throw new RangeError(`a sweep runs at most ${MAX_SWEEP} combinations`);
  return cells;
}
