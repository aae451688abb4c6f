import type { FilledPart, RangeOrder } from '@gridbot/engine';
import type { Order, OrderTrade } from '@gridbot/exchange';
import { type Money, money } from '@gridbot/shared';

/**
 * The part of a resting order's fill at the exchange that the bot has not booked yet (docs/trading-rules.md §2.6
 * "Live": partial fills keep the order on the book and book what filled), as a finished order of that size
 * (what `outcomeOf` books), or undefined when nothing new filled. With the order's trades (Binance) the part
 * is its trades beyond the booked quantity, and its fee theirs, in the asset the exchange took it in (§3
 * "Fills come with their fees"): a fee in a third coin (BNB) is priced by the trade, not split by quantity.
 * Without them (the paper exchange) it is the exchange's cumulative figures less the booked part.
 */
export function unbookedPart(order: Order, resting: RangeOrder, baseAsset: string): Order | undefined {
  const booked = bookedAtExchange(resting);
  const fromTrades = order.trades === undefined ? undefined : tradesPast(order.trades, booked?.qty ?? 0);
  if (fromTrades !== undefined) return fromTrades.qty.lte(0) ? undefined : finished(order, fromTrades);
  const cumQty = money(order.filledQuantity);
  const qty = cumQty.minus(booked?.qty ?? 0);
  if (qty.lte(0)) return undefined;
  const quote = money(order.filledQuote).minus(booked?.quote ?? 0);
  const ownAsset = order.feeAsset === 'USDT' || order.feeAsset === baseAsset;
  const fee = ownAsset
    ? money(order.fee).minus(booked?.fee ?? 0)
    : money(order.fee).times(qty).dividedBy(cumQty).toDecimalPlaces(8);
  return finished(order, { qty, quote, fee, feeAsset: order.feeAsset });
}

interface PartFigures {
  qty: Money;
  quote: Money;
  fee: Money;
  feeAsset: string;
}

function finished(order: Order, part: PartFigures): Order {
  return {
    ...order,
    status: 'FILLED',
    filledQuantity: part.qty.toFixed(),
    filledQuote: part.quote.toFixed(),
    averagePrice: part.quote.dividedBy(part.qty).toFixed(),
    fee: part.fee.toFixed(),
    feeAsset: part.feeAsset,
  };
}

/**
 * The trades after the first ones that make up `bookedQty` (parts are booked whole trades at a time), or
 * undefined when no run of trades adds up to it (then the cumulative figures are used).
 */
function tradesPast(trades: readonly OrderTrade[], bookedQty: number): PartFigures | undefined {
  let seen = money(0);
  let at = 0;
  while (at < trades.length && seen.lt(bookedQty)) seen = seen.plus(trades[at++]!.qty);
  if (!seen.eq(bookedQty)) return undefined;
  const rest = trades.slice(at);
  const feeAsset = rest[0]?.feeAsset ?? 'USDT';
  const sum = (pick: (t: OrderTrade) => string) => rest.reduce((s, t) => s.plus(pick(t)), money(0));
  return {
    qty: sum((t) => t.qty),
    quote: sum((t) => t.quote),
    fee: sum((t) => (t.feeAsset === feeAsset ? t.fee : '0')),
    feeAsset,
  };
}

/** Whether the price `p` stands at or past a resting order's level (a buy's from above, a sell's from below). */
export function reachedBy(o: Pick<RangeOrder, 'side' | 'price'>, p: number): boolean {
  return o.side === 'buy' ? p <= o.price : p >= o.price;
}

/** The resting orders filled in part, whose rest may fill at any moment while the price stands past them. */
export function partsPast(orders: readonly RangeOrder[], p: number): RangeOrder[] {
  return orders.filter((o) => o.filled !== undefined && reachedBy(o, p));
}

/**
 * What the bot booked of the exchange order resting now under `o`'s seq: its booked part less what earlier
 * orders at its level filled (`carried`, an order the exchange ended); undefined when nothing.
 */
export function bookedAtExchange(o: RangeOrder): FilledPart | undefined {
  const { filled, carried } = o;
  if (filled === undefined || carried === undefined) return filled;
  if (filled.qty <= carried.qty) return undefined;
  return {
    qty: money(filled.qty).minus(carried.qty).toNumber(),
    quote: money(filled.quote).minus(carried.quote).toNumber(),
    fee: money(filled.fee).minus(carried.fee).toNumber(),
  };
}

/** The quantity of `o` still to fill: what its exchange order is for, or the rest of it. */
export function restOf(o: RangeOrder): number {
  return o.filled === undefined ? o.qty : money(o.qty).minus(o.filled.qty).toNumber();
}

/** An order the exchange ended itself (or refused) with its rest unfilled. */
export function endedByExchange(order: Order): boolean {
  return order.status === 'CANCELED' || order.status === 'EXPIRED' || order.status === 'REJECTED';
}
