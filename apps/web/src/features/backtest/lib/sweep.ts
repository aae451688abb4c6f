/**
 * The parameter sweep (docs/product.md, Backtest): the strategy with every grid's buy spacing and take-profit
 * (and, for Multigrid, its trailing) set to each value of a small grid, at most MAX_SWEEP runs.
 */
export const MAX_SWEEP = 100;

export interface SweepCell {
  buyPct: number;
  takeProfitPct: number;
  /** Multigrid trailing of both the buy and the take-profit (%), when swept. */
  trailPct?: number;
}

export interface SweepAxes {
  buyPct: readonly number[];
  takeProfitPct: readonly number[];
  trailPct?: readonly number[];
}

/** `count` values from `lo` to `hi`, evenly spaced, rounded to 0.01. */
export function steps(lo: number, hi: number, count: number): number[] {
  if (count <= 1 || hi <= lo) return [Number(lo.toFixed(2))];
  return Array.from({ length: count }, (_, i) => Number((lo + ((hi - lo) * i) / (count - 1)).toFixed(2)));
}

export function sweepCells(axes: SweepAxes): SweepCell[] {
  const trails = axes.trailPct ?? [undefined];
  const cells: SweepCell[] = [];
  for (const buyPct of axes.buyPct)
    for (const takeProfitPct of axes.takeProfitPct)
      for (const trailPct of trails)
        cells.push(trailPct === undefined ? { buyPct, takeProfitPct } : { buyPct, takeProfitPct, trailPct });
  if (cells.length > MAX_SWEEP) throw new RangeError(`a sweep runs at most ${MAX_SWEEP} combinations`);
  return cells;
}

type Stored = Record<string, unknown> & { type: 'multigrid' | 'scalping'; No_of_order: number | string };

/** The stored strategy with the cell's values in every grid (grid 1 keeps buying at the market). */
export function strategyWith(strategy: Stored, cell: SweepCell): Stored {
  const n = Number(strategy.No_of_order);
  const fill = (length: number, v: number) => Array.from({ length }, () => v);
  if (strategy.type === 'scalping') {
    return {
      ...strategy,
      buy_percentage: fill(n - 1, cell.buyPct),
      takeprofit_percentage: cell.takeProfitPct,
    };
  }
  return {
    ...strategy,
    buy_percentage: fill(n - 1, cell.buyPct),
    takeprofit_percentage: fill(n, cell.takeProfitPct),
    ...(cell.trailPct === undefined
      ? {}
      : {
          buy_percentage_up: fill(n - 1, cell.trailPct),
          takeprofit_percentage_down: fill(n, cell.trailPct),
        }),
  };
}
