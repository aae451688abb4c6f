import { coinCommission, feeOf, money } from '../money';
import type { Fill, Intent } from '../types';

/**
 * The fill a backtest (or a paper exchange) gives an intent: immediately at the tick price, the whole
 * quantity, with the fee of docs/trading-rules.md §2.1 (`feePct` of quote or notional, in USDT). With
 * `buyFeeAsset` 'base' a spot buy's fee is taken from the coin bought instead, as Binance and the paper exchange
 * take it (docs/trading-rules.md §3), to 8 decimals rounded up. A liquidation closes at its liquidation price
 * returning notional − margin, without a fee.
 */
export function simulateFill(
  intent: Intent,
  price: number,
  timeMs: number,
  feePct: number,
  buyFeeAsset: 'quote' | 'base' = 'quote',
): Fill {
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
  if (intent.type === 'MarketBuy' && buyFeeAsset === 'base') {
    const fee = coinCommission(intent.qty, feePct);
    return {
      seq: intent.seq,
      side: 'buy',
      price,
      qty: intent.qty,
      quote: quote.toFixed(),
      fee: fee.toFixed(),
      feeAsset: 'base',
      timeMs,
    };
  }
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
