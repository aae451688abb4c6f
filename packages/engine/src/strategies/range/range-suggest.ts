/**
 * Range grid parameters from the pair's recent history (the start form's "Suggest"): the band of prices that
 * held the closes most of the time, and the most grids whose narrowest spacing covers twice the maker fee
 * with room to spare (docs/trading-rules.md §2.6 refuses a start whose spacing does not cover it at all).
 */
import type { RangeStrategy } from '@gridbot/shared';
import { money } from '../../money';
import type { EngineRules } from '../../rules';
import { levelPrice, levelSpec, RANGE_MAKER_FEE_PCT, rangeStartProblems } from './range-levels';

/** The suggested band leaves out a tenth of the closes on each side: it holds the central 80 %. */
const TAIL_PARTS = 10;
/**
 * The narrowest spacing is at least this many times twice the maker fee (spot 0.5 %, futures 0.1 %): a grid
 * just above the refusal line would earn next to nothing per pair once the price wobbles within a level.
 */
export const SUGGEST_FEE_MARGIN = 2.5;
const MIN_GRIDS = 2;
const MAX_GRIDS = 200;

export interface RangeSuggestInput {
  /** Close prices of the period, any order. */
  closes: ArrayLike<number>;
  mode: 'arithmetic' | 'geometric';
  market: 'spot' | 'future';
  rules: EngineRules;
  /**
   * With the investment (futures: times the leverage) and the price: fewer grids while the quantity per order
   * would be refused (below the step or the minimum notional).
   */
  funds?: { amount: number; price: number } | null;
  /**
   * The live price and the period's last close. Where they differ (a simulated market drifts from the shipped
   * candles; a real one moved since the last closed candle) the band moves with the price: both edges times
   * price / lastClose. A band that still leaves the price out (the period ended outside its central 80 %) is
   * stretched to one target spacing beyond the price, so the grid starts with orders on both sides.
   */
  anchor?: { price: number; lastClose: number } | null;
}

export type RangeSuggestion =
  | {
      ok: true;
      lower: number;
      upper: number;
      grids: number;
      /** Percent of the closes within [lower, upper]. */
      heldPct: number;
      /** The narrowest spacing of the suggested grid, percent of the level below it. */
      minSpacingPct: number;
    }
  | { ok: false; message: string };

/**
 * The central 80 % of the closes (nearest rank: the `⌊0.1 (n − 1)⌋`-th and `⌈0.9 (n − 1)⌉`-th of
 * them sorted), `lower` rounded down and `upper` up to the tick, and the largest grid count from 2 to 200 whose
 * narrowest spacing (levels on the tick) reaches `2 × fee × SUGGEST_FEE_MARGIN`.
 */
export function suggestRange(input: RangeSuggestInput): RangeSuggestion {
  const sorted = Array.from(input.closes)
    .filter((p) => Number.isFinite(p) && p > 0)
    .sort((a, b) => a - b);
  if (sorted.length < 2) return { ok: false, message: 'not enough candles in the period to suggest a range' };
  const last = sorted.length - 1;
  // Whole-number arithmetic: 0.1 × 10 in floating point may land a hair below 1.
  const lo = sorted[Math.floor(last / TAIL_PARTS)] as number;
  const hi = sorted[Math.ceil((last * (TAIL_PARTS - 1)) / TAIL_PARTS)] as number;
  const tick = input.rules.tickSize;
  const targetPct = 2 * RANGE_MAKER_FEE_PCT[input.market] * SUGGEST_FEE_MARGIN;
  const anchor = input.anchor && input.anchor.price > 0 && input.anchor.lastClose > 0 ? input.anchor : null;
  const ratio = anchor ? anchor.price / anchor.lastClose : 1;
  let lowerAt = lo * ratio;
  let upperAt = hi * ratio;
  if (anchor && anchor.price > upperAt) upperAt = anchor.price * (1 + targetPct / 100);
  if (anchor && anchor.price < lowerAt) lowerAt = anchor.price / (1 + targetPct / 100);
  const lower = money(lowerAt).dividedBy(tick).floor().times(tick).toNumber();
  const upper = money(upperAt).dividedBy(tick).ceil().times(tick).toNumber();
  if (!(lower > 0) || !(upper > lower)) {
    return {
      ok: false,
      message: `the price held at ${hi} for most of the period: there is no range to trade`,
    };
  }
  // Geometric levels at exactly the target ratio bound the count from above for both modes (an arithmetic grid's
  // narrowest gap, at its top, is narrower than a geometric one's of the same count).
  const bound = Math.floor(Math.log(upper / lower) / Math.log(1 + targetPct / 100)) + 1;
  let grids = Math.min(MAX_GRIDS, Math.max(MIN_GRIDS, bound));
  let spacing = narrowestGapPct(lower, upper, grids, input.mode, tick);
  while (grids > MIN_GRIDS && spacing < targetPct) {
    grids -= 1;
    spacing = narrowestGapPct(lower, upper, grids, input.mode, tick);
  }
  if (spacing < targetPct) {
    return {
      ok: false,
      message: `the price held between ${lower} and ${upper}: too narrow for two grids to clear ${targetPct}% per level after fees`,
    };
  }
  if (input.funds) {
    const strategy = (n: number): RangeStrategy => ({
      type: 'range',
      lower,
      upper,
      grids: n,
      mode: input.mode,
      sellOnStop: true,
      trailingUp: false,
      trailingDown: false,
      direction: 'long',
      leverage: 1,
    });
    const { amount, price } = input.funds;
    while (
      grids > MIN_GRIDS &&
      rangeStartProblems(strategy(grids), amount, price, input.rules, input.market).length > 0
    ) {
      grids -= 1;
    }
    spacing = narrowestGapPct(lower, upper, grids, input.mode, tick);
  }
  // The closes as the band sees them: moved by the same ratio.
  let held = 0;
  for (const p of sorted) if (p * ratio >= lower && p * ratio <= upper) held += 1;
  return {
    ok: true,
    lower,
    upper,
    grids,
    heldPct: money(held).times(100).dividedBy(sorted.length).toDecimalPlaces(2).toNumber(),
    minSpacingPct: money(spacing).toDecimalPlaces(4).toNumber(),
  };
}

/** The narrowest gap between two adjacent levels (on the tick), percent of the lower one. */
function narrowestGapPct(
  lower: number,
  upper: number,
  grids: number,
  mode: 'arithmetic' | 'geometric',
  tickSize: string,
): number {
  const spec = levelSpec({ lower, upper, grids, mode }, tickSize);
  let worst = Number.POSITIVE_INFINITY;
  for (let k = 0; k < grids; k++) {
    const lo = levelPrice(spec, k);
    worst = Math.min(worst, ((levelPrice(spec, k + 1) - lo) / lo) * 100);
  }
  return worst;
}
