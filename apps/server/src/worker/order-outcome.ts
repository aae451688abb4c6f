import type { Fill, Intent } from '@gridbot/engine';
import type { MarketKind, Order, PlaceOrderInput } from '@gridbot/exchange';
import { money } from '@gridbot/shared';

/** The exchange order that executes an intent, under the intent's own client order id. */
export function orderFor(
  intent: Exclude<Intent, { type: 'RecordLiquidation' }>,
  symbol: string,
  market: MarketKind,
  clientOrderId: string,
): PlaceOrderInput {
  const sell = intent.type === 'SellLots';
  return {
    market,
    symbol,
    side: sell ? 'sell' : 'buy',
    type: 'market',
    clientOrderId,
    quantity: intent.qty,
    ...(sell && market === 'future' ? { reduceOnly: true } : {}),
    ...(intent.eventPrice === undefined ? {} : { eventPrice: String(intent.eventPrice) }),
  };
}

/** A fee as the exchange charged it: its asset and amount. */
export interface FeePaid {
  asset: string;
  amount: string;
}

export type OrderOutcome =
  | { kind: 'filled'; fill: Fill; feePaid: FeePaid }
  | { kind: 'failed'; reason: string }
  /** Still open or partly filled: ask again later. */
  | { kind: 'open' };

/** The USDT price of a coin now (its spot pair's last price), or undefined when unknown. */
export type UsdtPriceOf = (asset: string) => number | undefined;

/**
 * What an exchange order means for its intent. A final order with something filled is a fill (a partial
 * sell leaves the rest on the bot); a final order with nothing filled failed; anything else is still open.
 */
export function outcomeOf(
  order: Order,
  seq: number,
  baseAsset: string,
  fallbackPrice: number,
  usdtPriceOf: UsdtPriceOf = () => undefined,
): OrderOutcome {
  const filled = Number(order.filledQuantity) > 0;
  const final = order.status !== 'NEW' && order.status !== 'PARTIALLY_FILLED';
  if (!final) return { kind: 'open' };
  if (!filled) return { kind: 'failed', reason: `order ${order.status.toLowerCase()}` };
  // A spot buy's fee may come out of the bought coin (Binance): the engine then keeps qty − fee.
  const feeAsset = order.feeAsset === baseAsset ? 'base' : 'quote';
  return {
    kind: 'filled',
    fill: {
      seq,
      side: order.side,
      price: order.averagePrice ?? String(fallbackPrice),
      qty: order.filledQuantity,
      quote: order.filledQuote,
      fee: feeAsset === 'base' ? order.fee : feeInUsdt(order, usdtPriceOf),
      feeAsset,
      timeMs: order.updatedMs,
      tradeId: order.exchangeOrderId,
    },
    feePaid: { asset: order.feeAsset, amount: order.fee },
  };
}

/**
 * A fee the engine books in USDT (docs/trading-rules.md §2). Binance takes it in a third coin when the user pays fees with BNB:
 * it is then worth its amount at that coin's last price. Without a price (the feed does not carry the coin) it
 * cannot be valued and counts 0, as before.
 */
function feeInUsdt(order: Order, usdtPriceOf: UsdtPriceOf): string {
  if (order.feeAsset === 'USDT' || money(order.fee).isZero()) return order.fee;
  const price = usdtPriceOf(order.feeAsset);
  return price === undefined ? '0' : money(order.fee).times(price).toDecimalPlaces(8).toFixed();
}
