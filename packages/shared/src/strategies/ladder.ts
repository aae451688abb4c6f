import type { StrategyKind } from './strategy.schema';
import { readCell } from './strategy-cells';

/** The start price of the ladder preview: levels read directly as percent of the entry. */
export const LADDER_START_PRICE = 100;

/** One grid of a strategy table as a form holds it: cells may be blank or half-typed. */
export interface LadderRowInput {
  allotted?: unknown;
  /** Drop from the previous grid's buy, in percent (ignored for grid 1, which buys at market). */
  buy?: unknown;
  /** Multigrid: this grid's take-profit percent. */
  takeProfit?: unknown;
}

export interface LadderInput {
  kind: StrategyKind;
  rows: LadderRowInput[];
  /** Scalping: the one take-profit percent on the average entry. */
  takeProfit?: unknown;
  startPrice?: number;
}

export interface LadderLevel {
  grid: number;
  /** Where this grid buys (its trigger price). */
  buyPrice: number;
  /** Cumulative drop from the start price, in percent. */
  dropPct: number;
  /** Share of the investment this grid spends, in percent (0 when the cell is not a number yet). */
  allottedPct: number;
  /** Share spent once this grid has bought, in percent. */
  cumulativeAllottedPct: number;
  /**
   * Multigrid: where this grid's lot arms its take-profit. Scalping: where everything sells once grids 1..k
   * are open (take-profit on the average entry). Null while the take-profit cell is not a number.
   */
  takeProfitPrice: number | null;
  /** False when the buy cell is not a valid percent yet (drawn as a zero drop). */
  buyValid: boolean;
}

export interface Ladder {
  startPrice: number;
  levels: LadderLevel[];
  /** The lowest buy price. */
  deepestPrice: number;
  deepestDropPct: number;
  totalAllottedPct: number;
}

const positive = (value: unknown): number | null => {
  const n = readCell(value);
  return typeof n === 'number' && n > 0 ? n : null;
};

/**
 * Where each grid would buy for a start price of 100 (each buy % is a drop from the previous grid's buy, as
 * docs/trading-rules.md §2.2 places them), how much of the investment it spends and where its take-profit sits. Pure and
 * lenient: blank or half-typed cells count as 0 so the preview follows the user while they type.
 */
export function buildLadder(input: LadderInput): Ladder {
  const startPrice = input.startPrice ?? LADDER_START_PRICE;
  const scalpTp = input.kind === 'scalping' ? positive(input.takeProfit) : null;
  const levels: LadderLevel[] = [];
  let price = startPrice;
  let spent = 0;
  let qtyWeight = 0;
  input.rows.forEach((row, i) => {
    const drop = i === 0 ? 0 : positive(row.buy);
    const buyValid = i === 0 || (drop !== null && drop < 100);
    if (i > 0 && buyValid && drop !== null) price *= 1 - drop / 100;
    const allottedPct = positive(row.allotted) ?? 0;
    spent += allottedPct;
    qtyWeight += allottedPct / price;
    let takeProfitPrice: number | null = null;
    if (input.kind === 'multigrid') {
      const tp = positive(row.takeProfit);
      takeProfitPrice = tp === null ? null : price * (1 + tp / 100);
    } else if (scalpTp !== null) {
      const avgEntry = qtyWeight > 0 ? spent / qtyWeight : price;
      takeProfitPrice = avgEntry * (1 + scalpTp / 100);
    }
    levels.push({
      grid: i + 1,
      buyPrice: price,
      dropPct: (1 - price / startPrice) * 100,
      allottedPct,
      cumulativeAllottedPct: spent,
      takeProfitPrice,
      buyValid,
    });
  });
  return {
    startPrice,
    levels,
    deepestPrice: price,
    deepestDropPct: (1 - price / startPrice) * 100,
    totalAllottedPct: spent,
  };
}
