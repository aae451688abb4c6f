/**
 * One tick of a range grid (docs/trading-rules.md §2.6), spot (long) and futures (long, short, neutral): the
 * start split, liquidation, stops, trailing up and down and the placing of the orders that answer fills.
 * Fills themselves arrive through `applyRangeFill`.
 * Pure: the same state, tick and rules give the same result.
 */
import { floorToStep, money } from '../../money';
import type { EngineRules } from '../../rules';
import type {
  CancelOrder,
  MarketBuy,
  PlaceLimit,
  RangeIntent,
  RangeMarketOrder,
  SellLots,
  Tick,
} from '../../types';
import { exactFloorToStep, exactMul, exactSub } from './exact';
import { liquidate, liquidationDue, reduces } from './range.futures';
import {
  type QueuedOrder,
  type RangeOrder,
  type RangePending,
  type RangeState,
  type RangeStopReason,
  withBand,
  withLock,
} from './range.state';
import { levelPrice, nearestLevel, orderQty, orderSizeProblem } from './range-levels';

export interface RangeStepResult {
  state: RangeState;
  intents: readonly RangeIntent[];
  /**
   * Why the grid did not start at this price (its quantity per order there is below the step or the minimum
   * notional, §2.6): it keeps waiting, and the runtime halts it with this reason (`startRefusedText`), as the
   * backtest ends there.
   */
  refused?: string;
}

/** What a grid whose start was refused at `p` says: the runtime's halt reason and the backtest's end. */
export function startRefusedText(p: number, refused: string): string {
  return `The grid cannot start at ${p}: ${refused}.`;
}

const NONE: readonly RangeIntent[] = Object.freeze([]);

/** Coin not locked in resting sells. */
export function freeBase(s: RangeState): number {
  return exactSub(s.base, s.lockedBase);
}

/** USDT not locked in resting buys. */
export function freeQuote(s: RangeState): number {
  return exactSub(s.quote, s.lockedQuote);
}

export function stepRange(s: RangeState, tick: Tick, rules: EngineRules): RangeStepResult {
  if (s.pending !== null || s.status === 'Stopped') return { state: s, intents: NONE };
  const p = tick.price;
  if (s.status === 'Waiting') return waiting(s, p, rules);
  const pr = s.params;
  if (liquidationDue(s, tick)) return liquidate(s);
  if (pr.stopLoss != null && p <= pr.stopLoss) return stopGrid(s, p, 'stoploss', rules);
  if (pr.takeProfit != null && p >= pr.takeProfit) return stopGrid(s, p, 'take_profit', rules);
  // The path reaches the trailing level exactly; a price already a further spacing beyond it (a start
  // far above the range) would leave sells below the market: the bot waits there, out of range.
  if (p >= s.trailUpAt && p < levelPrice(s.spec, s.offset + s.params.grids + 2)) return trailUp(s, p, rules);
  const down = s.futures?.trailDownAt ?? Number.NEGATIVE_INFINITY;
  if (p <= down && p > levelPrice(s.spec, s.offset - 2)) return trailDown(s, p);
  if (s.queue.length > 0) return placeQueued(s, rules);
  return { state: s, intents: NONE };
}

/** Before the start: wait for the trigger to be crossed, then split the grid at this price. */
function waiting(s: RangeState, p: number, rules: EngineRules): RangeStepResult {
  const t = s.params.trigger;
  if (t != null) {
    if (s.triggerAbove === null) {
      // The first tick tells which way the price must cross the trigger; a tick on it starts at once.
      if (p !== t) {
        const next = { ...s, triggerAbove: p < t };
        return { state: withBand(next), intents: NONE };
      }
    } else if (s.triggerAbove ? p < t : p > t) {
      return { state: s, intents: NONE };
    }
  }
  return start(s, p, rules);
}

/**
 * The start split at `p0` (§2.6): the level nearest p0 stays empty, buys below, sells above, one
 * quantity q; the coin for the sells is bought at market first, the orders are placed once it filled.
 */
function start(s: RangeState, p0: number, rules: EngineRules): RangeStepResult {
  if (s.futures !== undefined) return startFutures(s, p0, rules);
  const n = s.params.grids;
  const { qty, nearest } = orderQty(s.spec, n, p0, s.investment, rules.stepSize);
  const refused = refusedStart(s, qty, rules);
  if (refused !== undefined) return refused;
  const queue: QueuedOrder[] = [];
  const sellLevels: number[] = [];
  for (let k = 0; k <= n; k++) {
    if (k < nearest) queue.push({ level: k, side: 'buy', cost: 0 });
    else if (k > nearest) sellLevels.push(k);
  }
  const live: RangeState = {
    ...s,
    status: 'Live',
    qty,
    offset: 0,
    queue,
    stats: { ...s.stats, startPrice: p0 },
    trailUpAt: trailLevel(s, 0),
  };
  if (sellLevels.length === 0) return placeQueued(live, rules);
  const buyQty = money(qty).times(sellLevels.length).toString();
  return marketBuy(live, p0, buyQty, 'start', sellLevels);
}

/**
 * The futures start (§2.6): long opens at market the position its sells above will close, short the one
 * its buys below will close (the mirror); neutral opens nothing. The orders that open are queued now,
 * the closing ones once the market order filled.
 */
function startFutures(s: RangeState, p0: number, rules: EngineRules): RangeStepResult {
  const f = s.futures as NonNullable<RangeState['futures']>;
  const n = s.params.grids;
  const dir = s.params.direction;
  const funds = exactMul(s.investment, f.leverage);
  const { qty, nearest } = orderQty(s.spec, n, p0, funds, rules.stepSize, dir);
  const refused = refusedStart(s, qty, rules);
  if (refused !== undefined) return refused;
  const queue: QueuedOrder[] = [];
  const closing: number[] = [];
  for (let k = 0; k <= n; k++) {
    if (k === nearest) continue;
    const side = k < nearest ? 'buy' : 'sell';
    const closes = (dir === 'long' && side === 'sell') || (dir === 'short' && side === 'buy');
    if (closes) closing.push(k);
    else queue.push({ level: k, side, cost: 0, reduceOnly: false });
  }
  const live: RangeState = {
    ...s,
    status: 'Live',
    qty,
    offset: 0,
    queue,
    stats: { ...s.stats, startPrice: p0 },
    trailUpAt: trailLevel(s, 0),
    futures: { ...f, trailDownAt: trailDownLevel(s, 0) },
  };
  if (closing.length === 0) return placeQueued(live, rules);
  const side = dir === 'long' ? 'buy' : 'sell';
  return futuresMarket(live, p0, side, money(qty).times(closing.length).toString(), 'start', closing);
}

/**
 * The start's quantity per order at the price the grid starts at, checked as Start Grid checked it at the price
 * then (§2.6): a price that moved since (or a trigger far from it) can leave it below the step or the minimum
 * notional, and the grid would send orders the exchange refuses. It keeps waiting instead, with the reason.
 */
function refusedStart(s: RangeState, qty: number, rules: EngineRules): RangeStepResult | undefined {
  const refused = orderSizeProblem(qty, levelPrice(s.spec, 0), rules);
  return refused === undefined ? undefined : { state: s, intents: NONE, refused };
}

/** A futures market order; `levels` are the orders that answer it once it filled. */
function futuresMarket(
  s: RangeState,
  p: number,
  side: 'buy' | 'sell',
  qty: string,
  purpose: RangePending['purpose'],
  levels: number[],
  before: readonly RangeIntent[] = NONE,
): RangeStepResult {
  const seq = s.seq + 1;
  const reduceOnly = purpose === 'stop' || reduces(s.futures as NonNullable<RangeState['futures']>, side);
  const intent: RangeMarketOrder = { type: 'RangeMarketOrder', seq, side, qty, price: p, reduceOnly };
  const next: RangeState = { ...s, seq, pending: { intent, purpose, sellLevels: levels } };
  return { state: withBand(next), intents: [...before, intent] };
}

/** The price at which a futures grid whose lowest level is `offset` trails down (−Infinity when it may not). */
export function trailDownLevel(s: RangeState, offset: number): number {
  if (!s.params.trailingDown) return Number.NEGATIVE_INFINITY;
  const next = levelPrice(s.spec, offset - 1);
  const limit = s.params.trailingDownLimit;
  return limit != null && next < limit ? Number.NEGATIVE_INFINITY : next;
}

/**
 * Trailing down (futures, §2.6), the mirror of trailing up: one level spacing below the bottom, the order
 * on the top level is cancelled, `q` is sold at market and a buy answers it at the new bottom level;
 * the grid's bounds move down one level, never below `trailingDownLimit`.
 */
function trailDown(s: RangeState, p: number): RangeStepResult {
  const f = s.futures as NonNullable<RangeState['futures']>;
  const topLevel = s.offset + s.params.grids;
  const highest = s.orders.find((o) => o.level === topLevel);
  const intents: RangeIntent[] = [];
  let seq = s.seq;
  let orders = s.orders;
  if (highest !== undefined) {
    seq += 1;
    intents.push({ type: 'CancelOrder', seq, orderSeq: highest.seq, level: highest.level });
    orders = orders.filter((o) => o !== highest);
  }
  const offset = s.offset - 1;
  const moved: RangeState = {
    ...s,
    seq,
    orders,
    offset,
    trailUpAt: trailLevel(s, offset),
    futures: { ...f, trailDownAt: trailDownLevel(s, offset) },
    queue: s.queue.filter((q) => q.level <= offset + s.params.grids),
  };
  return futuresMarket(moved, p, 'sell', String(s.qty), 'trail', [offset], intents);
}

/** The price at which a grid whose lowest level is `offset` trails up (Infinity when it may not). */
export function trailLevel(s: RangeState, offset: number): number {
  if (!s.params.trailingUp) return Number.POSITIVE_INFINITY;
  const next = levelPrice(s.spec, offset + s.params.grids + 1);
  const limit = s.params.trailingUpLimit;
  return limit != null && next > limit ? Number.POSITIVE_INFINITY : next;
}

function marketBuy(
  s: RangeState,
  p: number,
  qty: string,
  purpose: RangePending['purpose'],
  sellLevels: number[],
  before: readonly RangeIntent[] = NONE,
): RangeStepResult {
  const seq = s.seq + 1;
  const intent: MarketBuy = {
    type: 'MarketBuy',
    seq,
    grid: 0,
    qty,
    quoteAmount: money(qty).times(p).toString(),
    price: p,
  };
  const next: RangeState = { ...s, seq, pending: { intent, purpose, sellLevels } };
  return { state: withBand(next), intents: [...before, intent] };
}

/**
 * Trailing up (§2.6): one level spacing above the top, the lowest buy (whatever order rests on the
 * lowest level) is cancelled, its quote buys q
 * at market and a sell goes to the new top level; the grid's bounds move up one level.
 */
function trailUp(s: RangeState, p: number, rules: EngineRules): RangeStepResult {
  const lowest = s.orders.find((o) => o.level === s.offset);
  const intents: RangeIntent[] = [];
  let seq = s.seq;
  let orders = s.orders;
  let locks = { lockedBase: s.lockedBase, lockedQuote: s.lockedQuote };
  if (lowest !== undefined) {
    seq += 1;
    const cancel: CancelOrder = { type: 'CancelOrder', seq, orderSeq: lowest.seq, level: lowest.level };
    intents.push(cancel);
    orders = orders.filter((o) => o !== lowest);
    // Futures orders lock nothing (they are on margin).
    if (s.futures === undefined) locks = withLock(s, lowest, -1);
  }
  const offset = s.offset + 1;
  const top = offset + s.params.grids;
  const moved: RangeState = {
    ...s,
    seq,
    orders,
    ...locks,
    offset,
    trailUpAt: trailLevel(s, offset),
    // Orders still due below the new lowest level are dropped with it.
    queue: s.queue.filter((q) => q.level >= offset),
  };
  if (moved.futures !== undefined) {
    // Futures: q at market on margin, like the start's (the grid was sized for it).
    const f = { ...moved.futures, trailDownAt: trailDownLevel(s, offset) };
    return futuresMarket({ ...moved, futures: f }, p, 'buy', String(s.qty), 'trail', [top], intents);
  }
  // What the cancelled buy held buys q at market, as far as the free USDT reaches at this price.
  const tick = Number(rules.tickSize);
  const affordable = floorToStep(money(Math.max(freeQuote(moved), 0)).dividedBy(p + tick), rules.stepSize);
  const qty = money(moved.qty).lt(affordable) ? money(moved.qty) : affordable;
  if (qty.lt(rules.stepSize) || qty.times(p).lt(rules.minNotional)) {
    const next = { ...moved, queue: [...moved.queue, { level: top, side: 'sell' as const, cost: 0 }] };
    return { state: withBand(next), intents };
  }
  return marketBuy(moved, p, qty.toString(), 'trail', [top], intents);
}

/**
 * Stop-loss, take-profit or the trader's stop of the whole grid: cancel every order and, with `sell` (the
 * strategy's `sellOnStop` for a stop the grid fires), sell the coin at market (futures: close the position
 * reduce-only).
 */
export function stopGrid(
  s: RangeState,
  p: number,
  reason: RangeStopReason,
  rules: EngineRules,
  sell: boolean = s.params.sellOnStop,
): RangeStepResult {
  let seq = s.seq;
  const intents: RangeIntent[] = [];
  for (const o of s.orders) {
    seq += 1;
    intents.push({ type: 'CancelOrder', seq, orderSeq: o.seq, level: o.level });
  }
  let next: RangeState = {
    ...s,
    seq,
    orders: [],
    lockedBase: 0,
    lockedQuote: 0,
    queue: [],
    status: 'Stopped',
    stopReason: reason,
  };
  const f = s.futures;
  if (f !== undefined) {
    // Futures: the position is closed reduce-only, exempt from the minimum notional (§3).
    if (!sell || f.pos === 0) return { state: withBand(next), intents };
    const side = f.pos > 0 ? 'sell' : 'buy';
    const qty = money(Math.abs(f.pos)).toString();
    return futuresMarket(next, p, side, qty, 'stop', [], intents);
  }
  const qty = floorToStep(s.base, rules.stepSize);
  // A remainder below the step or the minimum notional stays on the exchange as dust (§3).
  if (sell && qty.gt(0) && qty.times(p).gte(rules.minNotional)) {
    seq += 1;
    const sell: SellLots = {
      type: 'SellLots',
      seq,
      lotIds: [],
      grids: [],
      qty: qty.toString(),
      price: p,
      reason: reason === 'stoploss' || reason === 'take_profit' ? reason : 'manual_sell',
    };
    intents.push(sell);
    next = { ...next, seq, pending: { intent: sell, purpose: 'stop', sellLevels: [] } };
  }
  return { state: withBand(next), intents };
}

/**
 * Places the orders due (§2.6): never on a level that already has one (the order waits in the queue until the
 * level is free) or outside the grid (dropped); a sell
 * for q, or the free coin floor-stepped when that is less (a buy's commission was taken in the
 * coin); a buy for q, or what the free USDT pays floor-stepped when that is less. An order below the step or
 * minimum notional is not placed.
 */
function placeQueued(s: RangeState, rules: EngineRules): RangeStepResult {
  let seq = s.seq;
  const orders: RangeOrder[] = [...s.orders];
  const intents: PlaceLimit[] = [];
  let base = exactSub(s.base, s.lockedBase);
  let quote = exactSub(s.quote, s.lockedQuote);
  const top = s.offset + s.params.grids;
  let locks = { lockedBase: s.lockedBase, lockedQuote: s.lockedQuote };
  const waiting: QueuedOrder[] = [];
  for (const q of s.queue) {
    if (q.level < s.offset || q.level > top) continue;
    const at = levelIndex(orders, q.level);
    if (orders[at]?.level === q.level) {
      // The price passed that order to make the fill answered (one level away, where the path came from), so
      // the exchange has as a rule filled it too and the runtime learnt this fill first. The answer waits until
      // that fill frees the level (a restart's relay lays the grid out again if it never comes).
      waiting.push(q);
      continue;
    }
    const price = levelPrice(s.spec, q.level);
    const qty = queuedQty(s, q, price, base, quote, rules);
    if (qty === null) continue;
    seq += 1;
    const order: RangeOrder = { seq, level: q.level, side: q.side, price, qty, cost: q.cost };
    const intent: PlaceLimit = {
      type: 'PlaceLimit',
      seq,
      level: q.level,
      side: q.side,
      price: String(price),
      qty: String(qty),
    };
    if (s.futures !== undefined) {
      order.reduceOnly = q.reduceOnly === true;
      intent.reduceOnly = order.reduceOnly;
    } else {
      if (q.side === 'sell') base = exactSub(base, qty);
      else quote = exactSub(quote, exactMul(qty, price));
      locks = withLock(locks, order, 1);
    }
    orders.splice(at, 0, order);
    intents.push(intent);
  }
  const next: RangeState = { ...s, seq, orders, ...locks, queue: waiting };
  return { state: withBand(next), intents };
}

/**
 * The quantity a queued order is placed for at `price` (§2.6), null when it is not placed: q, or the part
 * that filled of the order it answers (`qty`, floored to the step); a spot sell no more than the free coin
 * floored to the step (a buy's commission was taken in the coin), a spot buy no more than the free USDT pays,
 * floored to the step.
 * Nothing below the step or the minimum notional.
 */
export function queuedQty(
  s: RangeState,
  q: QueuedOrder,
  price: number,
  freeBase: number,
  freeQuote: number,
  rules: EngineRules,
): number | null {
  const step = Number(rules.stepSize);
  let qty = q.qty === undefined ? s.qty : exactFloorToStep(q.qty, step);
  if (s.futures !== undefined) {
    // Futures: every order is on margin (the grid was sized for all of them); nothing is locked.
  } else if (q.side === 'sell') {
    const free = exactFloorToStep(freeBase, step);
    if (free < qty) qty = free;
  } else if (freeQuote < exactMul(qty, price)) {
    // A buy for what the free USDT pays, floored to the step, as a sell is for the free coin: after a trailing
    // step bought less than q (its cancelled buy's USDT paid less at the higher price), the answer of the
    // smaller sell would otherwise leave its level empty for good.
    qty = exactFloorToStep(freeQuote / price, step);
    // The division may round up onto the next step: never more than the free USDT.
    if (exactMul(qty, price) > freeQuote) qty = exactSub(qty, step);
  }
  return belowOrderMinimum(s, qty, price, q.reduceOnly, rules) ? null : qty;
}

/**
 * Whether the exchange would refuse an order of `qty` at `price` as too small: below the step, or below the
 * minimum notional unless it is a futures grid's reduce-only order, which the exchanges exempt (Binance USDⓈ-M
 * -4164 "Order's notional must be no smaller than 5 (unless you choose reduce only)", Bybit linear 110094; the
 * exchange port's order rules apply the same exemption), so a small rest or answer that closes still goes out.
 */
export function belowOrderMinimum(
  s: RangeState,
  qty: number,
  price: number,
  reduceOnly: boolean | undefined,
  rules: EngineRules,
): boolean {
  if (qty < Number(rules.stepSize)) return true;
  const exempt = s.futures !== undefined && reduceOnly === true;
  return !exempt && exactMul(qty, price) < rules.minNotionalNum;
}

/** Index of the first order at or above `level` (orders ascend by level). */
function levelIndex(orders: readonly RangeOrder[], level: number): number {
  let lo = 0;
  let hi = orders.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((orders[mid] as RangeOrder).level < level) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Level nearest `p` in the current grid (for displays and tests). */
export function currentLevel(s: RangeState, p: number): number {
  return nearestLevel(s.spec, s.offset, s.offset + s.params.grids, p);
}
