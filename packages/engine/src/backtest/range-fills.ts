/**
 * The fill model of resting limit orders on the path of docs/trading-rules.md §2.5/§2.6: a buy at P fills
 * when a line reaches P from above, a sell when it reaches P from below, at exactly P with the maker
 * fee. The one implementation for the backtest CLI and the browser backtest (and any paper exchange
 * that rests orders).
 */
import { exactCeilTo, exactMul } from '../strategies/range/exact';
import type { Fill } from '../types';

export interface RestingOrder {
  seq: number;
  side: 'buy' | 'sell';
  price: number;
  qty: number;
}

/**
 * The resting order the line from `a` to `b` fills first, or null. A line reaches a price when it
 * passes through it, its ends included: falling lines fill buys at or below `a` down to `b`, the
 * highest first; rising lines fill sells from the lowest up. Called again from the filled price,
 * it gives the next one, so fills come in path order and an order placed by a fill is filled only
 * when the rest of the line reaches it.
 */
export function firstRestingFill<O extends RestingOrder>(
  orders: readonly O[],
  a: number,
  b: number,
): O | null {
  let best: O | null = null;
  if (b < a) {
    for (const o of orders) {
      if (o.side === 'buy' && o.price <= a && o.price >= b && (best === null || o.price > best.price))
        best = o;
    }
  } else if (b > a) {
    for (const o of orders) {
      if (o.side === 'sell' && o.price >= a && o.price <= b && (best === null || o.price < best.price))
        best = o;
    }
  }
  return best;
}

/**
 * The fill of a resting order: all of it at its own price, the maker fee `makerFeePct`. On spot a
 * buy's commission is taken in the coin (qty × rate rounded up to 8 decimals, §2.1); a sell's, and
 * every futures fee, in USDT.
 */
export function restingFill(o: RestingOrder, timeMs: number, makerFeePct: number, spot: boolean): Fill {
  const rate = exactMul(makerFeePct, 0.01);
  const quote = exactMul(o.qty, o.price);
  if (spot && o.side === 'buy') {
    return {
      seq: o.seq,
      side: 'buy',
      price: o.price,
      qty: o.qty,
      quote,
      fee: exactCeilTo(exactMul(o.qty, rate), 8),
      feeAsset: 'base',
      timeMs,
    };
  }
  return { seq: o.seq, side: o.side, price: o.price, qty: o.qty, quote, fee: exactMul(quote, rate), timeMs };
}
