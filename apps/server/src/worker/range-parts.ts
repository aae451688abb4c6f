import type { RangeOrder } from '@gridbot/engine';
import type { Order } from '@gridbot/exchange';
import { money } from '@gridbot/shared';

/**
 * The part of a resting order's fill at the exchange that the bot has not booked yet (docs/trading-rules.md §2.6
 * "Live": partial fills keep the order on the book and book what filled): the exchange order's cumulative
 * figures less the order's booked part, as a finished order of that size (what `outcomeOf` books), or
 * undefined when nothing new filled. The fee is the exchange's cumulative commission less the booked one, in
 * the asset it was taken in; a fee paid in a third coin (BNB), which the bot books valued in USDT, is split
 * by quantity instead.
 */
export function unbookedPart(order: Order, resting: RangeOrder, baseAsset: string): Order | undefined {
  const booked = resting.filled;
  const cumQty = money(order.filledQuantity);
  const qty = cumQty.minus(booked?.qty ?? 0);
  if (qty.lte(0)) return undefined;
  const quote = money(order.filledQuote).minus(booked?.quote ?? 0);
  const ownAsset = order.feeAsset === 'USDT' || order.feeAsset === baseAsset;
  const fee = ownAsset
    ? money(order.fee).minus(booked?.fee ?? 0)
    : money(order.fee).times(qty).dividedBy(cumQty).toDecimalPlaces(8);
  return {
    ...order,
    status: 'FILLED',
    filledQuantity: qty.toFixed(),
    filledQuote: quote.toFixed(),
    averagePrice: quote.dividedBy(qty).toFixed(),
    fee: fee.toFixed(),
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
