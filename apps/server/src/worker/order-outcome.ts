import type { Fill, Intent } from '@gridbot/engine';
import type { MarketKind, Order, PlaceOrderInput } from '@gridbot/exchange';

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
  };
}

export type OrderOutcome =
  | { kind: 'filled'; fill: Fill }
  | { kind: 'failed'; reason: string }
  /** Still open or partly filled: ask again later. */
  | { kind: 'open' };

/**
 * What an exchange order means for its intent. A final order with something filled is a fill (a partial
 * sell leaves the rest on the bot); a final order with nothing filled failed; anything else is still open.
 */
export function outcomeOf(order: Order, seq: number, baseAsset: string, fallbackPrice: number): OrderOutcome {
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
      fee: feeAsset === 'quote' && order.feeAsset !== 'USDT' ? '0' : order.fee,
      feeAsset,
      timeMs: order.updatedMs,
      tradeId: order.exchangeOrderId,
    },
  };
}
