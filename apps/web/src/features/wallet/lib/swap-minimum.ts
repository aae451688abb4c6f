import { findMarketRules, floorToStep, type money } from '@gridbot/shared';

/**
 * Why a spot leftover cannot be swapped at all, or null: a market sell is rounded down to the pair's step
 * and must reach its minimum quantity and minimum order value (docs/trading-rules.md §2.1), so dust a bot's
 * sale left below them is refused by the exchange whatever amount is typed. Said before the user tries.
 */
export function swapMinimumReason(asset: string, free: string, price: string | undefined): string | null {
  const rules = findMarketRules(`${asset}USDT`, 'spot');
  if (!rules) return null;
  let quantity: ReturnType<typeof money>;
  try {
    quantity = floorToStep(free, rules.stepSize);
  } catch {
    return null;
  }
  if (quantity.lt(rules.minQty))
    return `Too small to swap: ${free} ${asset} is below the smallest order the exchange takes (${rules.minQty} ${asset}).`;
  if (price === undefined) return null;
  const value = quantity.times(price);
  if (value.lt(rules.minNotional))
    return `Too small to swap: ${free} ${asset} is worth about ${value.toFixed(2)} USDT, below the smallest order the exchange takes (${rules.minNotional} USDT).`;
  return null;
}
