import { takeProfitFeeWarning } from '../bots/start-readiness';
import { readNumberText } from '../common/number-text';
import type { MarketKind } from '../markets/market-rules.types';

/**
 * A cycle whose sell price is too close to its buy price loses on fees every turn: the strategy editors' rule
 * (`takeProfitFeeWarning`) applied to the cycle's gain, (sell / buy − 1) in percent. Null when the prices are
 * not both typed numbers, when the sell is not above the buy (the schema says so), or when the gain covers
 * the round-trip fee.
 */
export function cycleFeeWarning(buyPrice: unknown, sellPrice: unknown, market: MarketKind): string | null {
  const buy = readNumberText(buyPrice);
  const sell = readNumberText(sellPrice);
  if (!buy || !sell || !(sell > buy)) return null;
  return takeProfitFeeWarning([(sell / buy - 1) * 100], market);
}
