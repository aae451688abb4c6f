/**
 * The engine's strategy parameters. Arrays are indexed by grid − 1 and have length `grids`; grid 1
 * buys at market, so `buyPct[0]` and `buyUpPct[0]` are 0 and unused.
 */
export interface MultigridParams {
  type: 'multigrid';
  name: string;
  grids: number;
  alloc: number[];
  buyPct: number[];
  buyUpPct: number[];
  tpPct: number[];
  tpDownPct: number[];
}

/** Scalping (docs/trading-rules.md §2.3): no trailing; one take-profit on the average entry price. */
export interface ScalpingParams {
  type: 'scalping';
  name: string;
  grids: number;
  alloc: number[];
  buyPct: number[];
  tpPct: number;
}

export type GridParams = MultigridParams | ScalpingParams;

/** Grid-count bounds of docs/spec/01-core-screens.md §5. */
export const MAX_GRIDS: Readonly<Record<GridParams['type'], number>> = { multigrid: 50, scalping: 10 };
