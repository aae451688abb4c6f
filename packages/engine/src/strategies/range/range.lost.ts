/**
 * Range grid orders that never reached the exchange (docs/trading-rules.md §2.6 "Live", §3 "Intent before
 * order"): an intent written before a crash, or before a fault reloaded the bot, that the exchange does not
 * know by its client order id after the restart.
 *
 * Such an order never rested, so it never filled, while the price may have crossed its level and filled orders
 * beyond it; the answer to such a fill belongs on a level the grid still holds with the missing order (a buy
 * below a missing buy is answered by a sell on the missing buy's level). Placing the missing order again
 * and dropping the answer would leave two levels empty; placing both, a sell below a buy. So the grid no longer
 * holds a missing order: its USDT or coin is free again, and every level without a resting order is laid out
 * again as the grid's coin says: each sell resting and each sell's worth of free coin (answers due, missing
 * sells, coin an answer dropped earlier left free) keeps one level from the top down, the level below them
 * stays empty, every level below it gets a buy, as far as the free USDT goes; a resting order on the wrong
 * side of the empty level is moved (`misplacedOrders`). That is the layout the grid would have had, had the
 * missing order rested and filled with the others. Counting the coin, not the orders, puts back a grid that
 * lost an order by any path. A level whose price the market has already passed is placed as a plain GTC order
 * that fills at once and is answered like any other (§2.6 "Live"). A missing order the layout wants again at
 * its level and side is sent again under its own client order id (§3: confirmed not found → send again with
 * the same id). A futures grid is laid out the same way from its position (`futuresEmpty`): each q held is
 * one reduce-only order on the side that closes it, next to the empty level; every other level opens.
 */
import { exactFloorToStep, exactMul, exactSub } from './exact';
import {
  type QueuedOrder,
  type RangeFutures,
  type RangeOrder,
  type RangeState,
  withBand,
  withLock,
} from './range.state';
import { levelPrice, nearestLevel } from './range-levels';

export interface RelaidGrid {
  state: RangeState;
  /** Missing orders placed again at their level under their own seq (now resting in `state`). */
  again: RangeOrder[];
  /** Missing orders the grid gave up: their intents end without an order. */
  dropped: RangeOrder[];
}

/**
 * The grid without the orders `gone` (their USDT or coin free again), and the level its coin (futures: its
 * position) leaves empty.
 */
function withoutOrders(s: RangeState, gone: readonly RangeOrder[]) {
  const seqs = new Set(gone.map((o) => o.seq));
  let locks = { lockedBase: s.lockedBase, lockedQuote: s.lockedQuote };
  // Futures orders lock nothing (they are on margin).
  if (s.futures === undefined) for (const o of s.orders) if (seqs.has(o.seq)) locks = withLock(locks, o, -1);
  const orders = s.orders.filter((o) => !seqs.has(o.seq));
  const top = s.offset + s.params.grids;
  let empty: number;
  if (s.futures === undefined) {
    // A sell's worth of free coin is q, or what a buy of q left after its commission (q × 0.999): rounded.
    const freeBase = exactSub(s.base, locks.lockedBase);
    empty = top - (orders.filter((o) => o.side === 'sell').length + Math.round(freeBase / s.qty));
  } else {
    empty = futuresEmpty(s);
  }
  return { orders, locks, top, empty: Math.min(top, Math.max(s.offset, empty)) };
}

/**
 * The level a futures grid's position leaves empty: each q of a long is closed by a reduce-only sell, each q
 * of a short by a reduce-only buy, on the levels next to the empty one. A long grid holds q per sell (its
 * sells all close, the empty level below the last of them, as a spot grid's coin); a short one q per buy
 * (mirrored, from the bottom up); a neutral one holds none with the empty level where the start left it,
 * and each q it holds moved it one level away. Trailing moves the levels and the position together.
 */
function futuresEmpty(s: RangeState): number {
  const held = Math.round((s.futures as RangeFutures).pos / s.qty);
  const direction = s.params.direction;
  if (direction === 'long') return s.offset + s.params.grids - held;
  if (direction === 'short') return s.offset - held;
  return s.offset + nearestLevel(s.spec, 0, s.params.grids, s.stats.startPrice) - held;
}

/** Whether a futures order at `level` on `side` closes the position in the layout with `empty` empty. */
function closesAt(s: RangeState, empty: number, level: number, side: 'buy' | 'sell'): boolean {
  const held = Math.round((s.futures as RangeFutures).pos / s.qty);
  return side === 'sell' ? held > 0 && level <= empty + held : held < 0 && level >= empty + held;
}

/**
 * Resting orders on the wrong side of the level the grid's coin leaves empty (a buy at or above it, a sell at
 * or below it), once `lost` is given up: they are cancelled and their levels laid out again. Cancelling one
 * frees its USDT or its coin, so the empty level stays where it is. An order filled in part stays.
 */
export function misplacedOrders(s: RangeState, lost: readonly RangeOrder[]): RangeOrder[] {
  const { orders, empty } = withoutOrders(s, lost);
  return orders.filter(
    (o) =>
      o.filled === undefined &&
      o.carried === undefined &&
      (o.side === 'buy' ? o.level >= empty : o.level <= empty),
  );
}

/** `cancelled`: resting orders the exchange has cancelled (`misplacedOrders`); never sent again. */
export function relayLost(
  s: RangeState,
  lost: readonly RangeOrder[],
  stepSize: number,
  cancelled: readonly RangeOrder[] = [],
): RelaidGrid {
  const { orders, top, empty, ...rest } = withoutOrders(s, [...lost, ...cancelled]);
  let locks = rest.locks;
  let freeBase = exactSub(s.base, locks.lockedBase);
  let freeQuote = exactSub(s.quote, locks.lockedQuote);
  const again: RangeOrder[] = [];
  const open: { level: number; side: 'buy' | 'sell'; reduceOnly?: boolean }[] = [];
  const futures = s.futures !== undefined;
  for (let level = s.offset; level <= top; level++) {
    if (level === empty || orders.some((o) => o.level === level)) continue;
    const side = level < empty ? 'buy' : 'sell';
    const reduceOnly = futures ? closesAt(s, empty, level, side) : undefined;
    const same = lost.find(
      (o) => o.level === level && o.side === side && o.filled === undefined && o.reduceOnly === reduceOnly,
    );
    const affordable =
      same !== undefined &&
      (futures ||
        (side === 'buy'
          ? freeQuote >= exactMul(same.qty, same.price)
          : exactFloorToStep(freeBase, stepSize) >= same.qty));
    if (same !== undefined && affordable) {
      again.push(same);
      if (futures) continue;
      locks = withLock(locks, same, 1);
      if (side === 'buy') freeQuote = exactSub(freeQuote, exactMul(same.qty, same.price));
      else freeBase = exactSub(freeBase, same.qty);
    } else {
      open.push({ level, side, ...(futures ? { reduceOnly } : {}) });
    }
  }
  // A closing order's cost is what its opening cost (spot: a sell's coin): the answers' and the dropped
  // closing orders' costs, lowest level first; one without is costed as opened one level away, as its pair
  // would have been (a sell bought below it, a futures buy closing a short sold above it).
  const closing = (o: { side: 'buy' | 'sell'; reduceOnly?: boolean }) =>
    futures ? o.reduceOnly === true : o.side === 'sell';
  const costs = [
    ...s.queue.filter(closing).map((q) => q.cost),
    ...[...lost, ...cancelled].filter((o) => closing(o) && !again.includes(o)).map((o) => o.cost),
  ];
  const queue: QueuedOrder[] = open.map((q) => ({
    ...q,
    cost: closing(q)
      ? (costs.shift() ?? exactMul(s.qty, levelPrice(s.spec, q.level + (q.side === 'sell' ? -1 : 1))))
      : 0,
  }));
  const kept = [...orders, ...again].sort((a, b) => a.level - b.level);
  const state = withBand({ ...s, orders: kept, ...locks, queue });
  return { state, again, dropped: lost.filter((o) => !again.includes(o)) };
}
