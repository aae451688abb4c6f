/**
 * Fills of a range grid (docs/trading-rules.md §2.6): a resting limit order's fill books it and queues the
 * opposite order one level away; a market fill (start, trailing, stop) books it and queues the sells
 * its coin is for. Spot buys pay their commission in the coin (§2.1): the bot holds `qty − fee`.
 */
import { type MoneyInput, money, toNumber } from '../../money';
import type { EngineRules } from '../../rules';
import type { Fill, PlaceLimit } from '../../types';
import { exactAdd, exactMul, exactSub } from './exact';
import { applyFuturesFill, futuresPnl } from './range.futures';
import {
  type FilledPart,
  type QueuedOrder,
  type RangeOrder,
  type RangeState,
  replaceOrder,
  restingPart,
  withBand,
  withLock,
} from './range.state';
import { belowOrderMinimum, queuedQty } from './range.step';
import { levelPrice } from './range-levels';

/** What one applied fill did, as a backtest row and a runtime record would show it. */
export interface RangeFillOutcome {
  state: RangeState;
  applied: boolean;
  side: 'buy' | 'sell';
  /** The level of a limit order; null for a market order. */
  level: number | null;
  /** Fee in USDT (a commission taken in the coin valued at the fill price). */
  feeUsdt: number;
  /** Sells of a limit order: the matched pair's grid profit; otherwise 0. */
  pnl: number;
}

const num = (v: MoneyInput) => money(v).toNumber();

export function applyRangeFill(s: RangeState, fill: Fill): RangeFillOutcome {
  const order = s.orders.find((o) => o.seq === fill.seq);
  const market = s.pending !== null && s.pending.intent.seq === fill.seq ? s.pending : null;
  const side = fill.side;
  if (order === undefined && market === null) {
    return { state: s, applied: false, side, level: null, feeUsdt: 0, pnl: 0 };
  }
  if (s.futures !== undefined) return applyFuturesFill(s, fill, order, market);
  // Exchange fills may carry decimal strings; the backtest's carry numbers (exact.ts does the sums).
  const qty = toNumber(fill.qty);
  const quote = toNumber(fill.quote);
  const fee = toNumber(fill.fee);
  const feeInBase = fill.feeAsset === 'base';
  const feeUsdt = feeInBase ? exactMul(fee, toNumber(fill.price)) : fee;
  let base: number;
  let cash: number;
  if (side === 'buy') {
    base = exactAdd(s.base, feeInBase ? exactSub(qty, fee) : qty);
    cash = exactSub(s.quote, feeInBase ? quote : exactAdd(quote, fee));
  } else {
    base = exactSub(s.base, qty);
    cash = exactAdd(s.quote, exactSub(quote, fee));
  }
  const stats = { ...s.stats, fees: exactAdd(s.stats.fees, feeUsdt), trades: s.stats.trades + 1 };
  let queue: QueuedOrder[] = s.queue;
  let orders = s.orders;
  let locks = { lockedBase: s.lockedBase, lockedQuote: s.lockedQuote };
  let pnl = 0;
  const filled = order === undefined ? undefined : restingPart(order, qty, quote, fee);
  if (order !== undefined && filled?.kind === 'part') {
    // Filled in part: the order rests on with the rest, holding only what is left of it.
    orders = replaceOrder(s.orders, order, filled.part);
    locks = withLock(withLock(s, order, -1), filled.part, 1);
  } else if (order !== undefined && filled?.kind === 'whole') {
    const total = filled.total;
    orders = s.orders.slice();
    orders.splice(orders.indexOf(order), 1);
    locks = withLock(s, order, -1);
    if (side === 'buy') {
      // Answered by a sell one level up; the pair's cost is what this buy spent (all its parts).
      queue = [...queue, { level: order.level + 1, side: 'sell', cost: total.quote }];
    } else {
      pnl = exactSub(exactSub(total.quote, total.fee), order.cost);
      stats.gridProfit = exactAdd(stats.gridProfit, pnl);
      stats.matchedTrades += 1;
      queue = [...queue, { level: order.level - 1, side: 'buy', cost: 0 }];
    }
  } else if (market !== null && market.sellLevels.length > 0) {
    // Each sell's coin cost its share of the market buy (the start: q at the fill price).
    const cost = num(money(quote).dividedBy(market.sellLevels.length));
    queue = [...queue, ...market.sellLevels.map((level) => ({ level, side: 'sell' as const, cost }))];
  }
  const next: RangeState = {
    ...s,
    base,
    quote: cash,
    orders,
    ...locks,
    queue,
    pending: market !== null ? null : s.pending,
    stats,
  };
  return {
    state: withBand(next),
    applied: true,
    side,
    level: order?.level ?? null,
    feeUsdt,
    pnl,
  };
}

/**
 * What `restEnded` did: the new state, the order it places; `note` why a level stays empty, `pnl` the pair's
 * profit a closing order booked as complete with what filled (for its row in the order book).
 */
export interface RestEnded {
  state: RangeState;
  intents: PlaceLimit[];
  note?: string;
  pnl?: number;
}

/**
 * The exchange ended a resting order before all of it filled (cancelled or expired by the venue, §2.6 "Live":
 * partial fills keep the order on the book): what filled stays booked, and the level rests again for the rest
 * of its quantity under the next seq (a new client order id; the ended order's id is not used again). The
 * order keeps its quantity, cost and booked part, so the pair it closes or opens counts every part once; the
 * booked part becomes `carried`, what the new exchange order's figures do not include. A rest below the step
 * or the minimum notional (`belowOrderMinimum`: a futures reduce-only rest is exempt) cannot be placed: the order
 * counts as complete with what filled (`endedSmall`).
 * An order the grid no longer holds changes nothing.
 */
export function restEnded(s: RangeState, seq: number, rules: EngineRules): RestEnded {
  const order = s.orders.find((o) => o.seq === seq);
  if (order === undefined) return { state: s, intents: [] };
  const rest = order.filled === undefined ? order.qty : exactSub(order.qty, order.filled.qty);
  if (order.filled !== undefined && belowOrderMinimum(s, rest, order.price, order.reduceOnly, rules))
    return endedSmall(s, order, order.filled, rules);
  const next = s.seq + 1;
  const again: RangeOrder = { ...order, seq: next };
  if (order.filled !== undefined) again.carried = order.filled;
  const intent: PlaceLimit = {
    type: 'PlaceLimit',
    seq: next,
    level: order.level,
    side: order.side,
    price: String(order.price),
    qty: String(rest),
    ...(order.reduceOnly === undefined ? {} : { reduceOnly: order.reduceOnly }),
  };
  const state = withBand({ ...s, seq: next, orders: replaceOrder(s.orders, order, again) });
  return { state, intents: [intent] };
}

/**
 * An order the exchange ended with a rest too small to place again counts as complete with what filled: it
 * leaves the book (a spot order's rest is free again) and is answered one level away for the part that
 * filled, as a whole fill of that size would be. A closing order books its pair's profit on that part, its
 * cost in proportion. `note` says why the level stays empty when even the answer is below the minimums.
 */
function endedSmall(s: RangeState, order: RangeOrder, filled: FilledPart, rules: EngineRules): RestEnded {
  const orders = s.orders.filter((o) => o !== order);
  const stats = { ...s.stats };
  const cost = money(order.cost).times(filled.qty).dividedBy(order.qty).toNumber();
  const closes = s.futures !== undefined ? order.reduceOnly === true : order.side === 'sell';
  const net = order.side === 'buy' ? exactAdd(filled.quote, filled.fee) : exactSub(filled.quote, filled.fee);
  const pnl = !closes ? undefined : order.side === 'sell' ? exactSub(net, cost) : exactSub(cost, net);
  if (pnl !== undefined) {
    stats.gridProfit = exactAdd(stats.gridProfit, pnl);
    stats.matchedTrades += 1;
  }
  const up = order.side === 'buy';
  const answer: QueuedOrder = {
    level: order.level + (up ? 1 : -1),
    side: up ? 'sell' : 'buy',
    // Spot: a sell's cost is what its coin cost; futures: the opening part's net, for the closing order.
    cost: closes ? 0 : s.futures !== undefined ? net : filled.quote,
    qty: filled.qty,
    ...(s.futures !== undefined ? { reduceOnly: !closes } : {}),
  };
  const locks = s.futures !== undefined ? {} : withLock(s, order, -1);
  const next = withBand({ ...s, orders, ...locks, stats, queue: [...s.queue, answer] });
  const price = levelPrice(s.spec, answer.level);
  const inGrid = answer.level >= s.offset && answer.level <= s.offset + s.params.grids;
  const free = [exactSub(next.base, next.lockedBase), exactSub(next.quote, next.lockedQuote)] as const;
  // An answer outside the grid is never placed, as after any fill.
  const booked = pnl === undefined ? {} : { pnl };
  if (!inGrid || queuedQty(next, answer, price, ...free, rules) !== null)
    return { state: next, intents: [], ...booked };
  const note =
    `The ${order.side} at ${order.price} ended with ${filled.qty} of ${order.qty} filled; its rest is below ` +
    `the exchange's minimum order and so is the ${answer.side} of ${filled.qty} at ${price} that would ` +
    `answer it: level ${answer.level} stays empty.`;
  return { state: next, intents: [], note, ...booked };
}

/**
 * The grid's PnL at price `p` (§2.6): total = USDT held + the coin valued at `p` less the fee a market
 * sell of it would pay − the investment (futures: `futuresPnl`); floating PnL = total − grid profit (the held coin's gain or
 * loss against what it cost, fees of the unmatched buys included).
 */
export function rangePnl(
  s: RangeState,
  p: number,
  takerFeePct: number,
): { gridProfit: number; floatingPnl: number; totalPnl: number } {
  if (s.futures !== undefined) return futuresPnl(s, p, takerFeePct);
  const held = money(s.base).times(p);
  const total = money(s.quote).plus(held).minus(held.times(takerFeePct).dividedBy(100)).minus(s.investment);
  return {
    gridProfit: s.stats.gridProfit,
    floatingPnl: num(total.minus(s.stats.gridProfit)),
    totalPnl: num(total),
  };
}
