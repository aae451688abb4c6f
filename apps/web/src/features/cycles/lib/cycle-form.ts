import {
  CYCLE_SUGGESTION,
  findMarketRules,
  type LiveCycle,
  type StartCycleInput,
  startCycleInputSchema,
} from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';

/** What the inputs hold: text, as typed. */
export interface StartCycleFormValues {
  category: 'Spot' | 'Future';
  pair: string;
  amount: string;
  priceReachAt: string;
  sellPriceAt: string;
  stopLossAt: string;
  cycleCount: string;
  leverage: string;
}

export const emptyStartCycleForm: StartCycleFormValues = {
  category: 'Spot',
  pair: 'BTCUSDT',
  amount: '',
  priceReachAt: '',
  sellPriceAt: '',
  stopLossAt: '',
  cycleCount: '',
  leverage: '1',
};

function decimalsOf(step: string): number {
  const fraction = step.split('.')[1] ?? '';
  return fraction.replace(/0+$/, '').length;
}

/** Decimals a price of this size needs when the pair's tick size is unknown. */
function fallbackDecimals(value: number): number {
  const abs = Math.abs(value);
  return abs >= 100 ? 2 : abs >= 1 ? 4 : abs >= 0.01 ? 5 : 8;
}

/** A price rounded to the pair's tick size, as input text without trailing zeros ('1900', '92267.28'). */
export function priceText(value: number, pair: string, category: 'Spot' | 'Future'): string {
  const rules = findMarketRules(pair, category === 'Future' ? 'future' : 'spot');
  const decimals = rules ? decimalsOf(rules.tickSize) : fallbackDecimals(value);
  const tick = rules ? Number(rules.tickSize) : 10 ** -decimals;
  return String(Number((Math.round(value / tick) * tick).toFixed(decimals)));
}

export interface SuggestedPrices {
  priceReachAt: string;
  sellPriceAt: string;
  stopLossAt: string;
}

/** docs/spec/02-bots-wallet-account.md §9: buy = live × 0.95, sell = live × 1.05, stop loss = live × 0.8, on the pair's tick. */
export function suggestedPrices(
  livePrice: number,
  pair: string,
  category: 'Spot' | 'Future',
): SuggestedPrices {
  return {
    priceReachAt: priceText(livePrice * CYCLE_SUGGESTION.buy, pair, category),
    sellPriceAt: priceText(livePrice * CYCLE_SUGGESTION.sell, pair, category),
    stopLossAt: priceText(livePrice * CYCLE_SUGGESTION.stopLoss, pair, category),
  };
}

/** The request body: numbers where the schema wants them; leverage only for Future, stop loss if set. */
export function toStartCyclePayload(values: StartCycleFormValues): StartCycleInput {
  const stopLoss = values.stopLossAt.trim();
  return {
    category: values.category,
    pair: values.pair,
    amount: Number(values.amount),
    priceReachAt: Number(values.priceReachAt),
    sellPriceAt: Number(values.sellPriceAt),
    stopLossAt: stopLoss === '' ? undefined : Number(stopLoss),
    cycleCount: Number(values.cycleCount),
    leverage: values.category === 'Future' ? Number(values.leverage) : undefined,
  };
}

/** The shared schema's messages (docs/contributing.md §5: the form and the route use one schema). */
export function startCycleResolver(): Resolver<StartCycleFormValues> {
  const schema = zodResolver(startCycleInputSchema) as unknown as Resolver<StartCycleFormValues>;
  return async (values, context, options) => {
    // Leverage counts for Future only; the schema reads numbers from text.
    const payload = { ...values, leverage: values.category === 'Future' ? values.leverage : '' };
    const result = await schema(payload, context, options);
    if (Object.keys(result.errors).length > 0) return { values: {}, errors: result.errors };
    return { values, errors: {} };
  };
}

/**
 * docs/spec/02-bots-wallet-account.md §4 / docs/trading-rules.md §2.4: cycles done, plus half a cycle while a bought position is held, over the
 * cycle count.
 */
export function cycleProgress(
  cycle: Pick<LiveCycle, 'cycles_completed' | 'no_of_cycle' | 'last_bought_price'>,
) {
  const done = Number(cycle.cycles_completed) + (cycle.last_bought_price !== null ? 0.5 : 0);
  const total = Math.max(Number(cycle.no_of_cycle), 0);
  const pct = total > 0 ? Math.min(100, Math.max(0, (done / total) * 100)) : 0;
  return { done, total, pct };
}
