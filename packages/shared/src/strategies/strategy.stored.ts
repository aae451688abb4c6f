import type { MultigridStrategyInput, ScalpingStrategyInput } from './strategy.schema';

/**
 * The stored and listed strategy of docs/spec/01-core-screens.md §3 (field names as the spec spells them), plus `type` so the
 * engine's `parseStrategy` reads it as is. Allotments are fractions summing to 1; buy lists have one value
 * fewer than the grids (grid 1 buys at market); other percentages are percent (1.2 means 1.2 %).
 */
interface StoredStrategyBase {
  _id: string;
  strategy_name: string;
  /** Grid count. */
  No_of_order: number;
  status: 'active' | 'inactive';
  /** A read-only strategy seeded for everyone (owned by no user). */
  system: boolean;
  allotted_amount_percentage_per_order: number[];
  buy_percentage: number[];
  createdAt: string;
  updatedAt: string;
}

export interface StoredMultigridStrategy extends StoredStrategyBase {
  type: 'multigrid';
  buy_percentage_up: number[];
  takeprofit_percentage: number[];
  takeprofit_percentage_down: number[];
}

export interface StoredScalpingStrategy extends StoredStrategyBase {
  type: 'scalping';
  takeprofit_percentage: number;
}

export type StoredStrategy = StoredMultigridStrategy | StoredScalpingStrategy;

/** The strategy-defining part of a stored strategy: what a bot snapshots when it starts. */
export type StrategyParams =
  | Pick<
      StoredMultigridStrategy,
      | 'type'
      | 'No_of_order'
      | 'allotted_amount_percentage_per_order'
      | 'buy_percentage'
      | 'buy_percentage_up'
      | 'takeprofit_percentage'
      | 'takeprofit_percentage_down'
    >
  | Pick<
      StoredScalpingStrategy,
      | 'type'
      | 'No_of_order'
      | 'allotted_amount_percentage_per_order'
      | 'buy_percentage'
      | 'takeprofit_percentage'
    >;

/** One row of the strategy lists that name strategies (`/api/mystratagies`, `/api/systemstrategy`, …). */
export interface StrategyListResponse {
  strategies: StoredStrategy[];
}

/** `/api/stratagybypara`: the strategy and whether a running (Live or Pause) bot uses it. */
export interface StrategyDetailResponse {
  strategy: StoredStrategy;
  inUse: boolean;
}

/** Create, edit and copy: the saved strategy; after an edit, `inUse` says running bots keep their old table. */
export interface SaveStrategyResponse {
  success: boolean;
  message: string;
  strategy: StoredStrategy;
  inUse?: boolean;
}

const sum = (values: number[]) => values.reduce((total, n) => total + n, 0);

/**
 * Percent allotments (totalling 100 within 0.01) → fractions summing to 1. Each grid keeps its own value /100
 * and the last absorbs the (at most 0.0001) difference, so a re-opened strategy shows what the user typed.
 * When that would leave the last grid with less than half its share, every grid is scaled instead.
 */
export function toAllotmentFractions(percents: number[]): number[] {
  const n = percents.length;
  if (n === 0) return [];
  const fractions = percents.map((p) => clean(p / 100));
  const last = clean(1 - sum(fractions.slice(0, -1)));
  if (last > (fractions[n - 1] ?? 0) / 2) return [...fractions.slice(0, -1), last];
  const total = sum(percents);
  const scaled = percents.map((p) => clean(p / total));
  return [...scaled.slice(0, -1), clean(1 - sum(scaled.slice(0, -1)))];
}

/** Rounds away binary float noise (0.030299999999999997 → 0.0303); 12 decimals keep the sum within 1e-11. */
const clean = (fraction: number) => Number(fraction.toFixed(12));

/** A fraction shown as a percentage, without float noise (0.3333 → 33.33). */
export function fractionToPct(fraction: number): number {
  return Number((fraction * 100).toFixed(6));
}

/** The stored parameters of a validated Multigrid strategy. */
export function multigridToStored(input: MultigridStrategyInput): StrategyParams {
  return {
    type: 'multigrid',
    No_of_order: input.noOfGrids,
    allotted_amount_percentage_per_order: toAllotmentFractions(input.allottedPct),
    buy_percentage: input.buyPct,
    buy_percentage_up: input.buyUpPct,
    takeprofit_percentage: input.takeProfitPct,
    takeprofit_percentage_down: input.takeProfitDownPct,
  };
}

/** The stored parameters of a validated Scalping strategy. */
export function scalpingToStored(input: ScalpingStrategyInput): StrategyParams {
  return {
    type: 'scalping',
    No_of_order: input.noOfGrids,
    allotted_amount_percentage_per_order: toAllotmentFractions(input.allottedPct),
    buy_percentage: input.buyPct,
    takeprofit_percentage: input.takeProfitPct,
  };
}

/** The stored parameters of either kind. */
export function strategyToStored(input: MultigridStrategyInput | ScalpingStrategyInput): StrategyParams {
  return input.kind === 'multigrid' ? multigridToStored(input) : scalpingToStored(input);
}
