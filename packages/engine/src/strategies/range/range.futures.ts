/**
 * The futures range grid's position (docs/trading-rules.md §2.6 on §2.2's futures position): one-way, so a
 * neutral grid's longs and shorts net into one signed size; isolated, so each opening fill adds its
 * notional / leverage as margin and a close releases margin and cost in proportion (the average entry
 * stays). Liquidation and funding use the engine's one liquidation price and funding functions.
 */
import {
  initialMargin,
  liquidationPrice,
  type MaintBracket,
  money,
  reduceLongPosition,
  shortLiquidationPrice,
} from '@gridbot/shared';
import { fundingPayment } from '../../funding';
import { toNumber } from '../../money';
import type { CancelOrder, Fill, RangeIntent, Tick } from '../../types';
import { exactAdd, exactMul, exactSub } from './exact';
import type { RangeFillOutcome } from './range.fill';
import {
  type QueuedOrder,
  type RangeFutures,
  type RangeOrder,
  type RangePending,
  type RangeState,
  replaceOrder,
  restingPart,
  withBand,
} from './range.state';

/** Whether a `side` order only reduces the position `f` (a one-way position: the other side closes). */
export function reduces(f: RangeFutures, side: 'buy' | 'sell'): boolean {
  return side === 'sell' ? f.pos > 0 : f.pos < 0;
}

function liqOf(pos: number, entry: number, margin: number, brackets: readonly MaintBracket[] | null): number {
  const position = { qty: Math.abs(pos), entryNotional: entry, margin };
  const b = brackets ?? undefined;
  if (pos > 0) return liquidationPrice(position, b).toNumber();
  if (pos < 0) return shortLiquidationPrice(position, b).toNumber();
  return 0;
}

/**
 * The position after a fill of `qty` for notional `quote` on `side`, and the PnL the part that closes
 * realizes against the average entry. A fill larger than the position closes it and opens the rest.
 */
export function movePosition(
  f: RangeFutures,
  side: 'buy' | 'sell',
  qty: number,
  quote: number,
): { futures: RangeFutures; realized: number } {
  const signed = side === 'buy' ? qty : -qty;
  let pos = f.pos;
  let entry = f.entry;
  let margin = f.margin;
  let realized = 0;
  let openQty = qty;
  let openQuote = quote;
  if (pos !== 0 && Math.sign(signed) !== Math.sign(pos)) {
    const size = Math.abs(pos);
    const closeQty = Math.min(qty, size);
    const r = reduceLongPosition({ qty: size, entryNotional: entry, margin }, closeQty);
    const exitQuote = closeQty === qty ? money(quote) : money(quote).times(closeQty).dividedBy(qty);
    const gain = exitQuote.minus(r.costReleased);
    realized = (pos > 0 ? gain : gain.negated()).toNumber();
    entry = r.rest.entryNotional.toNumber();
    margin = r.rest.margin.toNumber();
    pos = pos > 0 ? exactSub(pos, closeQty) : exactAdd(pos, closeQty);
    openQty = exactSub(qty, closeQty);
    openQuote = money(quote).minus(exitQuote).toNumber();
  }
  if (openQty > 0) {
    pos = side === 'buy' ? exactAdd(pos, openQty) : exactSub(pos, openQty);
    entry = exactAdd(entry, openQuote);
    margin = exactAdd(margin, initialMargin(openQuote, f.leverage).toNumber());
  }
  const futures = { ...f, pos, entry, margin, liqPrice: liqOf(pos, entry, margin, f.brackets) };
  return { futures, realized };
}

/**
 * A futures fill: the position moves, the wallet takes the realized PnL and the fee (USDT). A resting
 * opening order is answered by a reduce-only order one level away that remembers the opening's
 * quote and fee; a reduce-only one books its pair's grid profit and is answered by an opening order.
 * A start or trailing market order is answered likewise on its levels (its quote shared equally).
 */
export function applyFuturesFill(
  s: RangeState,
  fill: Fill,
  order: RangeOrder | undefined,
  market: RangePending | null,
): RangeFillOutcome {
  const f = s.futures as RangeFutures;
  const side = fill.side;
  const qty = toNumber(fill.qty);
  const quote = toNumber(fill.quote);
  const fee = toNumber(fill.fee);
  const moved = movePosition(f, side, qty, quote);
  const stats = { ...s.stats, fees: exactAdd(s.stats.fees, fee), trades: s.stats.trades + 1 };
  // What this fill cost (a buy: quote plus fee) or brought in (a sell: quote less fee).
  const net = side === 'buy' ? exactAdd(quote, fee) : exactSub(quote, fee);
  const other = side === 'buy' ? 'sell' : 'buy';
  const step = side === 'buy' ? 1 : -1;
  let queue: QueuedOrder[] = s.queue;
  let orders = s.orders;
  let pnl = 0;
  const filled = order === undefined ? undefined : restingPart(order, qty, quote, fee);
  if (order !== undefined && filled?.kind === 'part') {
    // Filled in part (§2.6 "Live"): the position moved by the part, the order rests on with the rest.
    orders = replaceOrder(s.orders, order, filled.part);
  } else if (order !== undefined && filled?.kind === 'whole') {
    const total = filled.total;
    // The whole order's net, all its parts: a buy's quote plus fee, a sell's quote less fee.
    const net = side === 'buy' ? exactAdd(total.quote, total.fee) : exactSub(total.quote, total.fee);
    orders = s.orders.filter((o) => o !== order);
    if (order.reduceOnly === true) {
      pnl = side === 'sell' ? exactSub(net, order.cost) : exactSub(order.cost, net);
      stats.gridProfit = exactAdd(stats.gridProfit, pnl);
      stats.matchedTrades += 1;
      queue = [...queue, { level: order.level + step, side: other, cost: 0, reduceOnly: false }];
    } else {
      queue = [...queue, { level: order.level + step, side: other, cost: net, reduceOnly: true }];
    }
  } else if (market !== null && market.sellLevels.length > 0) {
    const closing = market.intent.type === 'RangeMarketOrder' && !market.intent.reduceOnly;
    const cost = closing ? money(net).dividedBy(market.sellLevels.length).toNumber() : 0;
    queue = [
      ...queue,
      ...market.sellLevels.map((level) => ({ level, side: other, cost, reduceOnly: closing }) as QueuedOrder),
    ];
  }
  const next: RangeState = {
    ...s,
    quote: exactSub(exactAdd(s.quote, moved.realized), fee),
    futures: moved.futures,
    orders,
    queue,
    pending: market !== null ? null : s.pending,
    stats,
  };
  return { state: withBand(next), applied: true, side, level: order?.level ?? null, feeUsdt: fee, pnl };
}

/**
 * Total PnL at `p`: wallet balance (realized PnL, fees and funding in it) + the position's unrealized PnL
 * less the taker fee of closing it − the investment; floating = total − grid profit.
 */
export function futuresPnl(
  s: RangeState,
  p: number,
  takerFeePct: number,
): { gridProfit: number; floatingPnl: number; totalPnl: number } {
  const f = s.futures as RangeFutures;
  const size = Math.abs(f.pos);
  const value = money(size).times(p);
  const unrealized = f.pos > 0 ? value.minus(f.entry) : money(f.entry).minus(value);
  const total = money(s.quote)
    .plus(unrealized)
    .minus(value.times(takerFeePct).dividedBy(100))
    .minus(s.investment);
  return {
    gridProfit: s.stats.gridProfit,
    floatingPnl: total.minus(s.stats.gridProfit).toNumber(),
    totalPnl: total.toNumber(),
  };
}

/**
 * Whether the tick liquidates the position: the mark price (the tick's price when none is given) at or
 * beyond the liquidation price. A stop on the same tick at a level the price crossed first (a long's
 * stop-loss above the liquidation price, a short's take-profit below it) wins, as for the Multigrid.
 */
export function liquidationDue(s: RangeState, tick: Tick): boolean {
  const f = s.futures;
  if (f === undefined || f.pos === 0 || !(f.liqPrice > 0)) return false;
  const mark = tick.markPrice ?? tick.price;
  const p = tick.price;
  if (f.pos > 0) {
    const sl = s.params.stopLoss;
    return mark <= f.liqPrice && !(sl != null && p <= sl && sl > f.liqPrice);
  }
  const tp = s.params.takeProfit;
  return mark >= f.liqPrice && !(tp != null && p >= tp && tp < f.liqPrice);
}

/**
 * The exchange liquidates the position: its isolated margin is lost (§2.2), every order is cancelled,
 * the grid stops with reason `liquidated`. No order is sent for the close.
 */
export function liquidate(s: RangeState): { state: RangeState; intents: RangeIntent[] } {
  const f = s.futures as RangeFutures;
  let seq = s.seq;
  const intents: RangeIntent[] = [];
  for (const o of s.orders) {
    seq += 1;
    intents.push({ type: 'CancelOrder', seq, orderSeq: o.seq, level: o.level } satisfies CancelOrder);
  }
  const next: RangeState = {
    ...s,
    seq,
    orders: [],
    queue: [],
    status: 'Stopped',
    stopReason: 'liquidated',
    quote: exactSub(s.quote, f.margin),
    futures: { ...f, pos: 0, entry: 0, margin: 0, liqPrice: 0 },
    // The exchange's close is a trade of the position, as the Multigrid counts its liquidation.
    stats: { ...s.stats, trades: s.stats.trades + 1 },
  };
  return { state: withBand(next), intents };
}

/**
 * Funding at a funding time (§2.2): a long pays position size × mark price × rate when the rate is
 * positive (receives it when negative), a short the opposite. Booked in the wallet balance.
 */
export function applyRangeFunding(
  s: RangeState,
  markPrice: number,
  rate: number,
): { state: RangeState; amount: number } {
  const f = s.futures;
  if (f === undefined || f.pos === 0) return { state: s, amount: 0 };
  const amount =
    f.pos > 0 ? fundingPayment(f.pos, markPrice, rate) : -fundingPayment(-f.pos, markPrice, rate) || 0;
  const next: RangeState = {
    ...s,
    quote: exactAdd(s.quote, amount),
    futures: { ...f, funding: exactAdd(f.funding, amount) },
  };
  return { state: next, amount };
}

/** The notional of the position at `p` (for time in market). */
export function positionValue(s: RangeState, p: number): number {
  const f = s.futures;
  return f === undefined ? 0 : exactMul(Math.abs(f.pos), p);
}
