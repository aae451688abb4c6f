/**
 * What a range grid would do if started now (docs/trading-rules.md §2.6), for the start form: the levels, the one
 * order quantity, what the start trades at market, the profit of one grid after both maker fees, or the
 * reasons the start is refused. The same functions the start and the backtest run, so the form and the
 * bot cannot disagree.
 */
import { findMarketRules, rangeStrategySchema } from '@gridbot/shared';
import { money } from '../../money';
import { compileRules } from '../../rules';
import { exactMul } from './exact';
import { levelPrice, levelSpec, orderQty, RANGE_MAKER_FEE_PCT, rangeStartProblems } from './range-levels';

export interface RangePreviewInput {
  strategy: unknown;
  symbol: string;
  category: 'spot' | 'future';
  /** USDT (futures: the margin; the orders' notional is this times the leverage). */
  investment: number;
}

export interface RangePreview {
  ok: true;
  /** Every level's price, lowest first (level 0 is `lower`). */
  levels: number[];
  /** The level nearest the price, left empty at the start. */
  nearest: number;
  /** The one quantity of every order. */
  qty: number;
  /** Orders placed at the start below and above the empty level. */
  buys: number;
  sells: number;
  /**
   * What the start trades at market at the price (spot and long: buys the coin its sells need; short: sells
   * what its buys close), `quote` at the price before fees; null for a neutral grid or a grid with nothing
   * to open.
   */
  startOrder: { side: 'buy' | 'sell'; qty: number; quote: number } | null;
  /** One matched buy/sell pair's profit after both maker fees, percent of the buy, over every pair of levels. */
  profitPerGridPct: { min: number; max: number };
  /** The maker fee of each resting order, percent. */
  feePct: number;
}

export type RangePreviewResult =
  | RangePreview
  | { ok: false; stage: 'symbol' | 'strategy' | 'start'; problems: string[] };

/**
 * The grid at price `p0`, or why it cannot start there. A pair of levels `P_k < P_{k+1}` earns
 * `P_{k+1} × (1 − f) − P_k × (1 + f)` on each unit: the sell's quote less its fee, less the buy's quote and its
 * fee (spot takes the buy's fee in the coin, worth `P_k × f`).
 */
export function previewRange(input: RangePreviewInput, p0: number): RangePreviewResult {
  const market = findMarketRules(input.symbol, input.category);
  if (!market)
    return { ok: false, stage: 'symbol', problems: [`unknown ${input.category} symbol ${input.symbol}`] };
  const parsed = rangeStrategySchema.safeParse(input.strategy);
  if (!parsed.success) {
    return {
      ok: false,
      stage: 'strategy',
      problems: parsed.error.issues.map((i) => `${i.path.join('.') || 'strategy'}: ${i.message}`),
    };
  }
  const s = parsed.data;
  const rules = compileRules(market);
  const funds = input.category === 'future' ? exactMul(input.investment, s.leverage) : input.investment;
  const problems = rangeStartProblems(s, funds, p0, rules, input.category);
  if (problems.length > 0) return { ok: false, stage: 'start', problems };

  const spec = levelSpec(s, rules.tickSize);
  const levels = Array.from({ length: s.grids + 1 }, (_, k) => levelPrice(spec, k));
  const { qty, nearest, buys, sells } = orderQty(spec, s.grids, p0, funds, rules.stepSize, s.direction);
  const feePct = RANGE_MAKER_FEE_PCT[input.category];
  const f = money(feePct).dividedBy(100);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < s.grids; k++) {
    const lo = money(levels[k] as number);
    const hi = money(levels[k + 1] as number);
    const pct = hi
      .times(money(1).minus(f))
      .minus(lo.times(money(1).plus(f)))
      .dividedBy(lo)
      .times(100)
      .toDecimalPlaces(4)
      .toNumber();
    min = Math.min(min, pct);
    max = Math.max(max, pct);
  }
  const opened = s.direction === 'long' ? sells : s.direction === 'short' ? buys : 0;
  const startQty = exactMul(qty, opened);
  const startOrder =
    startQty > 0
      ? {
          side: s.direction === 'short' ? ('sell' as const) : ('buy' as const),
          qty: startQty,
          quote: money(startQty).times(p0).toDecimalPlaces(8).toNumber(),
        }
      : null;
  return {
    ok: true,
    levels,
    nearest,
    qty,
    buys,
    sells,
    startOrder,
    profitPerGridPct: { min, max },
    feePct,
  };
}
