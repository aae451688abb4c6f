import {
  AUTO_FILL,
  fractionToPct,
  MARKET_PRICE,
  MULTIGRID_MAX_GRIDS,
  type MultigridStrategyPayload,
  SCALP_TAKE_PROFIT_DEFAULT,
  SCALPING_MAX_GRIDS,
  type ScalpingStrategyPayload,
  type StoredStrategy,
  type StrategyKind,
} from '@gridbot/shared';

/** One table row as the form holds it: every cell is the text the user typed. */
export interface GridRowValues {
  allottedAmountPercentagePerOrder: string;
  buyPercentage: string;
  buyPercentageUp: string;
  takeProfitPercentage: string;
  takeProfitPercentageDown: string;
}

/** Both kinds share one shape; Scalping ignores the second conditions and the per-grid take-profit. */
export interface StrategyFormValues {
  strategyName: string;
  noOfGrids: string;
  tableData: GridRowValues[];
  /** Scalping: the one take-profit percent. */
  takeProfitPercentage: string;
}

export const MAX_GRIDS: Record<StrategyKind, number> = {
  multigrid: MULTIGRID_MAX_GRIDS,
  scalping: SCALPING_MAX_GRIDS,
};

export const blankRow = (): GridRowValues => ({
  allottedAmountPercentagePerOrder: '',
  buyPercentage: '',
  buyPercentageUp: '',
  takeProfitPercentage: '',
  takeProfitPercentageDown: '',
});

export function emptyFormValues(kind: StrategyKind): StrategyFormValues {
  return {
    strategyName: '',
    noOfGrids: '',
    tableData: [],
    takeProfitPercentage: kind === 'scalping' ? String(SCALP_TAKE_PROFIT_DEFAULT) : '',
  };
}

/** The grid count typed so far, when it is valid (digits only, 1 to max); otherwise null. */
export function parseGridCount(text: string, max: number): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,2}$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return n >= 1 && n <= max ? n : null;
}

/** `n` rows: the existing ones kept, blank ones added, extra ones dropped. */
export function resizeRows(rows: GridRowValues[], n: number): GridRowValues[] {
  if (rows.length === n) return rows;
  if (rows.length > n) return rows.slice(0, n);
  return [...rows, ...Array.from({ length: n - rows.length }, blankRow)];
}

/** 100 split into `n` shares with 2 decimals; the last takes the remainder so the total is exactly 100. */
export function evenShares(n: number): string[] {
  const share = Math.floor((100 / n) * 100) / 100;
  const last = Number((100 - share * (n - 1)).toFixed(2));
  return Array.from({ length: n }, (_, i) => String(i === n - 1 ? last : share));
}

/** docs/spec/01-core-screens.md §5 Auto Fill: amount 100 / grids; buy and take-profit 1.2; up and down conditions 0.2. */
export function autoFillRows(n: number): GridRowValues[] {
  const shares = evenShares(n);
  return shares.map((share, i) => ({
    allottedAmountPercentagePerOrder: share,
    buyPercentage: i === 0 ? '' : String(AUTO_FILL.buyPct),
    buyPercentageUp: i === 0 ? '' : String(AUTO_FILL.upDownPct),
    takeProfitPercentage: String(AUTO_FILL.takeProfitPct),
    takeProfitPercentageDown: String(AUTO_FILL.upDownPct),
  }));
}

/** The request body of a create or edit (docs/spec/01-core-screens.md §7): grid 1's buy cells say 'marketprice'. */
export function toMultigridPayload(values: StrategyFormValues): MultigridStrategyPayload {
  return {
    strategyName: values.strategyName,
    noOfGrids: values.noOfGrids,
    tableData: values.tableData.map((row, i) => ({
      gridNo: i + 1,
      allottedAmountPercentagePerOrder: row.allottedAmountPercentagePerOrder,
      buyPercentage: i === 0 ? MARKET_PRICE : row.buyPercentage,
      buyPercentageUp: i === 0 ? MARKET_PRICE : row.buyPercentageUp,
      takeProfitPercentage: row.takeProfitPercentage,
      takeProfitPercentageDown: row.takeProfitPercentageDown,
    })),
  };
}

export function toScalpingPayload(values: StrategyFormValues): ScalpingStrategyPayload {
  return {
    strategyName: values.strategyName,
    noOfGrids: values.noOfGrids,
    tableData: values.tableData.map((row, i) => ({
      gridNo: i + 1,
      allottedAmountPercentagePerOrder: row.allottedAmountPercentagePerOrder,
      buyPercentage: i === 0 ? MARKET_PRICE : row.buyPercentage,
    })),
    takeProfitPercentage: values.takeProfitPercentage,
  };
}

/** A stored strategy (docs/spec/01-core-screens.md §3) back in the form: fractions shown as percentages again. */
export function fromStored(stored: StoredStrategy): StrategyFormValues {
  const buy = stored.buy_percentage;
  const rows = stored.allotted_amount_percentage_per_order.map((fraction, i) => ({
    allottedAmountPercentagePerOrder: String(fractionToPct(fraction)),
    buyPercentage: i === 0 ? '' : String(buy[i - 1] ?? ''),
    buyPercentageUp:
      i === 0 || stored.type !== 'multigrid' ? '' : String(stored.buy_percentage_up[i - 1] ?? ''),
    takeProfitPercentage: stored.type === 'multigrid' ? String(stored.takeprofit_percentage[i] ?? '') : '',
    takeProfitPercentageDown:
      stored.type === 'multigrid' ? String(stored.takeprofit_percentage_down[i] ?? '') : '',
  }));
  return {
    strategyName: stored.strategy_name,
    noOfGrids: String(stored.No_of_order),
    tableData: rows,
    takeProfitPercentage: stored.type === 'scalping' ? String(stored.takeprofit_percentage) : '',
  };
}

/** docs/spec/01-core-screens.md My Strategies: names are cut at 12 characters plus an ellipsis. */
export function shortName(name: string): string {
  return name.length > 12 ? `${name.slice(0, 12)}...` : name;
}

/** How deep a stored strategy reaches: the cumulative drop of its last buy, in percent. */
export function depthPct(stored: StoredStrategy): number {
  const kept = stored.buy_percentage.reduce((price, pct) => price * (1 - pct / 100), 1);
  return (1 - kept) * 100;
}
