/**
 * The range grid's state (docs/trading-rules.md §2.6): the orders resting on the book, one per level at most,
 * the coin and USDT the bot holds, and what it booked. Plain JSON, like every engine state.
 */
import type { MaintBracket, RangeStrategy } from '@gridbot/shared';
import type { EngineRules } from '../../rules';
import type { MarketBuy, RangeMarketOrder, SellLots } from '../../types';
import { exactAdd, exactMul, exactSub } from './exact';
import { type LevelSpec, levelPrice, levelSpec } from './range-levels';

export type RangeStatus = 'Waiting' | 'Live' | 'Stopped';
export type RangeStopReason = 'stoploss' | 'take_profit' | 'liquidated' | 'manual' | 'manual_sell';

/** A limit order resting at level `level` (absolute: level 0 is the strategy's `lower`). */
export interface RangeOrder {
  /** The `seq` of its PlaceLimit intent; its fill carries it. */
  seq: number;
  level: number;
  side: 'buy' | 'sell';
  price: number;
  qty: number;
  /**
   * Spot sells: what the base it sells cost (the matched buy's quote), for the pair's grid profit.
   * Futures closing orders: the opening fill's quote with its fee (a closing sell) or less it (a closing buy).
   */
  cost: number;
  /** Futures: the order only closes the position (it answers an opening fill). */
  reduceOnly?: boolean;
  /**
   * What of it the exchange has filled and the bot booked so far, while the rest still rests (a live partial
   * fill, §2.6): quantity, quote and fee (in the asset the exchange took it in). Absent until a part fills.
   */
  filled?: FilledPart;
  /**
   * What of `filled` earlier exchange orders at this level filled before the exchange ended them (cancelled or
   * expired, §2.6 "Live"): the order resting now under this seq is for the rest only, so the exchange's figures
   * for it start from zero. Absent when this seq's order is the level's first.
   */
  carried?: FilledPart;
}

/** The booked part of a partly filled resting order. */
export interface FilledPart {
  qty: number;
  quote: number;
  fee: number;
}

/** An order due at `level` on the next step (answering a fill, or once the start buy has filled). */
export interface QueuedOrder {
  level: number;
  side: 'buy' | 'sell';
  cost: number;
  reduceOnly?: boolean;
  /**
   * The part that filled of the order it answers, when the exchange ended that order with a rest too small
   * to place again (§2.6 "Live"); absent: q.
   */
  qty?: number;
}

/** A market order in flight: what it was for. */
export interface RangePending {
  intent: MarketBuy | SellLots | RangeMarketOrder;
  purpose: 'start' | 'trail' | 'stop';
  /**
   * Start and trailing orders: the levels of the orders that answer them, on the other side (spot: the
   * sells the bought coin is for).
   */
  sellLevels: number[];
}

export interface RangeStats {
  startTimeMs: number;
  /** Price the grid started at (the start buy's decision price); 0 before. */
  startPrice: number;
  /** Σ matched pairs' profit: sell quote − sell fee − the matched buy's quote (§2.6). */
  gridProfit: number;
  /** Every fee, USDT (a fee taken in the coin valued at its fill price). */
  fees: number;
  /** Fills applied (market and limit). */
  trades: number;
  /** Limit sells filled: each closes one buy/sell pair. */
  matchedTrades: number;
}

/**
 * A futures grid's one-way isolated position (docs/trading-rules.md §2.2, §2.6), kept as the exchange keeps it:
 * a neutral grid's longs and shorts net into it.
 */
export interface RangeFutures {
  leverage: number;
  /** Signed size: long > 0, short < 0. */
  pos: number;
  /** |pos| × the average entry price. */
  entry: number;
  /** Isolated margin: each opening fill's notional / leverage, released in proportion on a close. */
  margin: number;
  /** Liquidation price of the position; 0 when flat. */
  liqPrice: number;
  /** The symbol's leverage brackets (null: the 0.5 % default). */
  brackets: MaintBracket[] | null;
  /** Funding received (+) or paid (−), inside the wallet balance. */
  funding: number;
  /** Price at which the grid trails down one level (−Infinity without trailing or past its limit). */
  trailDownAt: number;
  /**
   * Ticks carry a mark price apart from the trade price (a backtest with mark candles): the liquidation
   * price is then reached on the mark, not an edge of the trade price's band.
   */
  markFeed?: boolean;
}

export interface RangeState {
  v: 1;
  kind: 'range';
  params: RangeStrategy;
  market: 'spot' | 'future';
  spec: LevelSpec;
  status: RangeStatus;
  stopReason: RangeStopReason | null;
  investment: number;
  /** The one order quantity q, fixed at the start; 0 while waiting. */
  qty: number;
  /** Lowest level of the grid: 0 at the start, +1 per trailing step up. */
  offset: number;
  /** With a trigger: whether the start waits for the price to rise to it (null until the first tick). */
  triggerAbove: boolean | null;
  /** Spot: coin held (free and locked in sells), USDT held (free and locked in buys). Futures: base 0, quote the wallet balance. */
  base: number;
  quote: number;
  /** Resting orders, ascending level, never two on one level. */
  orders: RangeOrder[];
  /** Σ qty of the resting sells and Σ qty × price of the resting buys: what the orders lock. */
  lockedBase: number;
  lockedQuote: number;
  queue: QueuedOrder[];
  seq: number;
  pending: RangePending | null;
  stats: RangeStats;
  /** Price at which the grid trails up one level (Infinity without trailing or past its limit). */
  trailUpAt: number;
  /** Open interval in which a tick changes nothing; at or beyond an edge something fills or fires. */
  band: { lo: number; hi: number };
  /** Futures only: the position. */
  futures?: RangeFutures;
}

export interface CreateRangeInput {
  params: RangeStrategy;
  investment: number;
  market: 'spot' | 'future';
  rules: EngineRules;
  startTimeMs: number;
  /** Futures: the leverage (default the strategy's) and the symbol's brackets. */
  leverage?: number;
  brackets?: readonly MaintBracket[] | null;
}

/** A grid waiting for its first tick (and its trigger, when it has one). Check `rangeStartProblems` first. */
export function createRange(input: CreateRangeInput): RangeState {
  const spec = levelSpec(input.params, input.rules.tickSize);
  const state: RangeState = {
    v: 1,
    kind: 'range',
    params: input.params,
    market: input.market,
    spec,
    status: 'Waiting',
    stopReason: null,
    investment: input.investment,
    qty: 0,
    offset: 0,
    triggerAbove: null,
    base: 0,
    quote: input.investment,
    orders: [],
    lockedBase: 0,
    lockedQuote: 0,
    queue: [],
    seq: 0,
    pending: null,
    stats: {
      startTimeMs: input.startTimeMs,
      startPrice: 0,
      gridProfit: 0,
      fees: 0,
      trades: 0,
      matchedTrades: 0,
    },
    trailUpAt: Number.POSITIVE_INFINITY,
    band: { lo: Number.POSITIVE_INFINITY, hi: Number.NEGATIVE_INFINITY },
  };
  if (input.market === 'future') {
    state.futures = {
      leverage: input.leverage ?? input.params.leverage,
      pos: 0,
      entry: 0,
      margin: 0,
      liqPrice: 0,
      brackets: input.brackets ? input.brackets.map((b) => [...b] as MaintBracket) : null,
      funding: 0,
      trailDownAt: Number.NEGATIVE_INFINITY,
    };
  }
  return state;
}

/** Price of the grid's current lowest and highest level. */
export function rangeBounds(s: RangeState): { lower: number; upper: number } {
  return { lower: levelPrice(s.spec, s.offset), upper: levelPrice(s.spec, s.offset + s.params.grids) };
}

/** Price outside the grid with nothing to trail: the bot waits, shown as "out of range" (§2.6). */
export function isOutOfRange(s: RangeState, p: number): boolean {
  if (s.status !== 'Live') return false;
  const { lower, upper } = rangeBounds(s);
  return p < lower || p > upper;
}

/**
 * The band of `s` (docs/trading-rules.md §2.6 fill model): below the highest resting buy or a stop-loss,
 * above the lowest resting sell, a take-profit or the trailing level, something happens.
 */
export function rangeBand(s: RangeState): { lo: number; hi: number } {
  if (s.pending !== null || s.queue.length > 0 || s.status === 'Stopped') {
    // Pending or stopped: nothing can happen on a tick; queued orders: the next tick places them.
    return s.status === 'Stopped' || s.pending !== null
      ? { lo: Number.NEGATIVE_INFINITY, hi: Number.POSITIVE_INFINITY }
      : { lo: Number.POSITIVE_INFINITY, hi: Number.NEGATIVE_INFINITY };
  }
  if (s.status === 'Waiting') {
    const t = s.params.trigger;
    if (t == null || s.triggerAbove === null)
      return { lo: Number.POSITIVE_INFINITY, hi: Number.NEGATIVE_INFINITY };
    return s.triggerAbove ? { lo: Number.NEGATIVE_INFINITY, hi: t } : { lo: t, hi: Number.POSITIVE_INFINITY };
  }
  let lo = s.params.stopLoss ?? Number.NEGATIVE_INFINITY;
  let hi = Math.min(s.params.takeProfit ?? Number.POSITIVE_INFINITY, s.trailUpAt);
  for (const o of s.orders) {
    if (o.side === 'buy') lo = Math.max(lo, o.price);
    else hi = Math.min(hi, o.price);
  }
  const f = s.futures;
  if (f !== undefined) {
    lo = Math.max(lo, f.trailDownAt);
    // The liquidation price is an event too (a backtest's mark price is its path price).
    if (f.pos > 0 && f.liqPrice > 0 && f.markFeed !== true) lo = Math.max(lo, f.liqPrice);
    if (f.pos < 0 && f.liqPrice > 0 && f.markFeed !== true) hi = Math.min(hi, f.liqPrice);
  }
  return { lo, hi };
}

/** What `o` locks: its coin (a sell) or its USDT (a buy). */
/** What a resting order holds: its quantity not yet filled (a sell's coin, a buy's USDT at its price). */
function lockOf(o: RangeOrder): { base: number; quote: number } {
  const qty = o.filled === undefined ? o.qty : exactSub(o.qty, o.filled.qty);
  return o.side === 'sell' ? { base: qty, quote: 0 } : { base: 0, quote: exactMul(qty, o.price) };
}

/** The locked totals once `o` rests (sign 1) or no longer rests (sign −1). */
export function withLock(
  s: Pick<RangeState, 'lockedBase' | 'lockedQuote'>,
  o: RangeOrder,
  sign: 1 | -1,
): { lockedBase: number; lockedQuote: number } {
  const l = lockOf(o);
  const f = sign === 1 ? exactAdd : exactSub;
  return {
    lockedBase: l.base === 0 ? s.lockedBase : f(s.lockedBase, l.base),
    lockedQuote: l.quote === 0 ? s.lockedQuote : f(s.lockedQuote, l.quote),
  };
}

/**
 * `s` with its band set. Only for a state object just built by the caller and not yet returned: the
 * band is written into it rather than copying every field once more (a fill builds a few per candle).
 */
export function withBand(s: RangeState): RangeState {
  s.band = rangeBand(s);
  return s;
}

/**
 * A resting order's fill against what is left of it (§2.6 "Live": a partial fill keeps the order on the book
 * and books what filled): `part` is the order with this fill added to its booked part, when some is still
 * left; otherwise `total` is the whole order's quantity, quote and fee, this fill included.
 */
export function restingPart(
  order: RangeOrder,
  qty: number,
  quote: number,
  fee: number,
): { kind: 'part'; part: RangeOrder } | { kind: 'whole'; total: FilledPart } {
  const done = order.filled;
  const total: FilledPart =
    done === undefined
      ? { qty, quote, fee }
      : { qty: exactAdd(done.qty, qty), quote: exactAdd(done.quote, quote), fee: exactAdd(done.fee, fee) };
  return total.qty < order.qty
    ? { kind: 'part', part: { ...order, filled: total } }
    : { kind: 'whole', total };
}

/** `orders` with `order` replaced by `next`, in place. */
export function replaceOrder(
  orders: readonly RangeOrder[],
  order: RangeOrder,
  next: RangeOrder,
): RangeOrder[] {
  return orders.map((o) => (o === order ? next : o));
}
