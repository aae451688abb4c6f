import { feeOf, money } from '../money';
import type { Fill, Intent } from '../types';

/**
 * The fill a backtest (or a paper exchange) gives an intent: immediately at the tick price, the whole
 * quantity, with the fee of docs/trading-rules.md §2.1 (`feePct` of quote or notional, in USDT). A liquidation closes
 * at its liquidation price returning notional − margin, without a fee.
 */
export function simulateFill(intent: Intent, price: number, timeMs: number, feePct: number): Fill {
  if (intent.type === 'RecordLiquidation') {
    return {
      seq: intent.seq,
      side: 'sell',
      price: intent.price,
      qty: intent.qty,
      quote: intent.quote,
      fee: 0,
      timeMs,
    };
  }
  const quote = money(intent.qty).times(price);
  return {
    seq: intent.seq,
    side: intent.type === 'MarketBuy' ? 'buy' : 'sell',
    price,
    qty: intent.qty,
    quote: quote.toFixed(),
    fee: feeOf(quote, feePct).toFixed(),
    timeMs,
  };
}
