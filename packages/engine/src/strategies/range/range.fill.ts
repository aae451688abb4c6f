/**
 * Fills of a range grid (docs/trading-rules.md §2.6): a resting limit order's fill books it and queues the
 * opposite order one level away; a market fill (start, trailing, stop) books it and queues the sells
 * its coin is for. Spot buys pay their commission in the coin (§2.1): the bot holds `qty − fee`.
 */
import { type MoneyInput, money, toNumber } from '../../money';
import type { Fill } from '../../types';
import { exactAdd, exactMul, exactSub } from './exact';
import { applyFuturesFill, futuresPnl } from './range.futures';
import {
  type QueuedOrder,
  type RangeState,
  replaceOrder,
  restingPart,
  withBand,
  withLock,
} from './range.state';

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
