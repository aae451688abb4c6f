/**
 * The range grid's price levels and order size (docs/trading-rules.md §2.6), and the checks that refuse a
 * start: spacing that does not cover twice the maker fee, a quantity below the step or minimum notional.
 */
import { MAKER_FEE_PCT, type RangeStrategy } from '@gridbot/shared';
import { decimalsOf, floorToStep, money, roundToTick } from '../../money';
import type { EngineRules } from '../../rules';

/** Maker fee of a resting limit order, percent (docs/trading-rules.md §2.6): spot 0.1 %, futures 0.02 %. */
export const RANGE_MAKER_FEE_PCT = MAKER_FEE_PCT;

/** What the level formula needs, kept on the state so trailing can extend the grid past `upper`. */
export interface LevelSpec {
  mode: 'arithmetic' | 'geometric';
  /** The unrounded `lower` of the strategy (level 0). */
  base: number;
  /** Arithmetic: Δ = (upper − lower) / N; geometric: ratio = (upper / lower)^(1/N). */
  spacing: number;
  tickSize: string;
  tickDecimals: number;
}

export function levelSpec(
  s: Pick<RangeStrategy, 'lower' | 'upper' | 'grids' | 'mode'>,
  tickSize: string,
): LevelSpec {
  const spacing =
    s.mode === 'arithmetic'
      ? money(s.upper).minus(s.lower).dividedBy(s.grids).toNumber()
      : money(s.upper).dividedBy(s.lower).pow(money(1).dividedBy(s.grids)).toNumber();
  return { mode: s.mode, base: s.lower, spacing, tickSize, tickDecimals: decimalsOf(tickSize) };
}

/**
 * Price of level `k` (k may run past N or below 0 once the grid has trailed): arithmetic
 * `lower + k × Δ`, geometric `lower × ratio^k`, rounded to the nearest tick.
 */
export function levelPrice(spec: LevelSpec, k: number): number {
  let memo = LEVEL_MEMO.get(spec);
  if (memo === undefined) {
    memo = new Map();
    LEVEL_MEMO.set(spec, memo);
  }
  let price = memo.get(k);
  if (price === undefined) {
    price = computeLevelPrice(spec, k);
    memo.set(k, price);
  }
  return price;
}

/** Level prices per spec object: a pure function of (spec, k), computed in decimal once. */
const LEVEL_MEMO = new WeakMap<LevelSpec, Map<number, number>>();

function computeLevelPrice(spec: LevelSpec, k: number): number {
  const raw =
    spec.mode === 'arithmetic'
      ? money(spec.base).plus(money(spec.spacing).times(k))
      : money(spec.base).times(money(spec.spacing).pow(k));
  return roundToTick(raw, spec.tickSize).toNumber();
}

/** The level of `from..to` nearest to `p` (the lower one on a tie). */
export function nearestLevel(spec: LevelSpec, from: number, to: number, p: number): number {
  let best = from;
  let dist = Number.POSITIVE_INFINITY;
  for (let k = from; k <= to; k++) {
    const d = Math.abs(levelPrice(spec, k) - p);
    if (d < dist) {
      dist = d;
      best = k;
    }
  }
  return best;
}

/**
 * The one quantity of every order: `floor(investment / (Σ buy-level prices + p0 × sell levels) / step)
 * × step` (futures: the investment times the leverage). Buy levels are below the level nearest `p0`,
 * sell levels above it. The levels whose position is opened at the start count at `p0`: a long's sells,
 * a short's buys; a neutral grid opens nothing at the start and counts every level at its price.
 */
export function orderQty(
  spec: LevelSpec,
  grids: number,
  p0: number,
  funds: number,
  stepSize: string,
  direction: 'long' | 'short' | 'neutral' = 'long',
): { qty: number; nearest: number; buys: number; sells: number } {
  const nearest = nearestLevel(spec, 0, grids, p0);
  const sells = grids - nearest;
  let denom = money(0);
  if (direction === 'short') denom = denom.plus(money(p0).times(nearest));
  else for (let k = 0; k < nearest; k++) denom = denom.plus(levelPrice(spec, k));
  if (direction === 'long') denom = denom.plus(money(p0).times(sells));
  else for (let k = nearest + 1; k <= grids; k++) denom = denom.plus(levelPrice(spec, k));
  const qty = denom.isZero() ? 0 : floorToStep(money(funds).dividedBy(denom), stepSize).toNumber();
  return { qty, nearest, buys: nearest, sells };
}

/**
 * The price a grid is sized and checked at before it starts (§2.6): a grid with a trigger starts where the
 * price crosses it, one without at the price now.
 */
export function rangeStartPrice(params: { trigger?: number | null | undefined }, price: number): number {
  return params.trigger ?? price;
}

/**
 * Why this grid cannot start at `p0`, empty when it can: the narrowest gap between two adjacent
 * levels must exceed twice the maker fee, and the order quantity must reach the step and the
 * minimum notional at the lowest level. `funds` is the investment (futures: times the leverage).
 */
export function rangeStartProblems(
  s: RangeStrategy,
  funds: number,
  p0: number,
  rules: EngineRules,
  market: 'spot' | 'future',
): string[] {
  const problems: string[] = [];
  if (market === 'spot' && s.direction !== 'long') problems.push('a spot grid can only be long');
  if (market === 'spot' && s.trailingDown) problems.push('trailing down is for futures grids only');
  if (market === 'spot' && s.leverage !== 1) problems.push('a spot grid has no leverage');
  if (market === 'future' && s.trailingUp && s.direction !== 'long')
    problems.push('trailing up is for long grids only');
  if (market === 'future' && s.trailingDown && s.direction !== 'short')
    problems.push('trailing down is for short grids only');
  const spec = levelSpec(s, rules.tickSize);
  const feePct = RANGE_MAKER_FEE_PCT[market];
  const minPct = 2 * feePct;
  let worst = Number.POSITIVE_INFINITY;
  let at = 0;
  for (let k = 0; k < s.grids; k++) {
    const lo = levelPrice(spec, k);
    const gapPct = ((levelPrice(spec, k + 1) - lo) / lo) * 100;
    if (gapPct < worst) {
      worst = gapPct;
      at = k;
    }
  }
  if (!(worst > minPct)) {
    const lo = levelPrice(spec, at);
    const minGap = money(lo).times(minPct).dividedBy(100).toSignificantDigits(6).toString();
    problems.push(
      `grid spacing of ${money(worst).toDecimalPlaces(4).toString()}% between ${lo} and ${levelPrice(spec, at + 1)} does not cover twice the ${feePct}% fee: the minimum spacing is ${minPct}% (${minGap} USDT at ${lo}); use fewer grids or a wider range`,
    );
  }
  const { qty } = orderQty(spec, s.grids, p0, funds, rules.stepSize, s.direction);
  const tooSmall = orderSizeProblem(qty, levelPrice(spec, 0), rules);
  if (tooSmall !== undefined) problems.push(tooSmall);
  return problems;
}

/**
 * Why one quantity per order `qty` cannot trade, undefined when it can: it must reach the step, and the minimum
 * notional at the grid's lowest level `lowest` (§2.6).
 */
export function orderSizeProblem(qty: number, lowest: number, rules: EngineRules): string | undefined {
  if (qty <= 0)
    return `the quantity per order is below the step of ${rules.stepSize} ${rules.symbol}: invest more or use fewer grids`;
  if (money(qty).times(lowest).lt(rules.minNotional))
    return `an order of ${qty} at ${lowest} is ${money(qty).times(lowest).toDecimalPlaces(4).toString()} USDT, below the minimum order of ${rules.minNotional} USDT for ${rules.symbol}: invest more or use fewer grids`;
  return undefined;
}
