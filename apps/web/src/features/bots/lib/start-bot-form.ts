import {
  botMessages,
  minimumForGrids,
  readNumberText,
  type StartBotInput,
  startBotInputSchema,
  triggerVsLivePriceErrors,
} from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { botKindOf } from '../api/bot-paths';

/** What the inputs hold: text, as typed. */
export interface StartBotFormValues {
  botType: '' | 'Multigrid' | 'Scalping';
  category: '' | 'Spot' | 'Future';
  selectPair: string;
  myStrategy: string;
  amount: string;
  leverage: string;
  profitbookat: string;
  sellPausePrice: string;
  restartPrice: string;
  stoplossPrice: string;
}

export const emptyStartBotForm: StartBotFormValues = {
  botType: '',
  category: '',
  selectPair: '',
  myStrategy: '',
  amount: '',
  leverage: '1',
  profitbookat: '',
  sellPausePrice: '',
  restartPrice: '',
  stoplossPrice: '',
};

/** Prefill from `?pair=&category=&strategy=&botType=` (`startBotPath` in lib/start-bot-link.ts writes it). */
export function valuesFromQuery(params: URLSearchParams): StartBotFormValues {
  const category = params.get('category')?.toLowerCase();
  const botType = params.get('botType');
  const pair = params.get('pair')?.toUpperCase().replace('/', '') ?? '';
  return {
    ...emptyStartBotForm,
    botType: botType ? (botKindOf(botType) === 'scalping' ? 'Scalping' : 'Multigrid') : '',
    category: category?.startsWith('fut') ? 'Future' : category === 'spot' ? 'Spot' : '',
    selectPair: pair,
    myStrategy: params.get('strategy') ?? '',
  };
}

/**
 * The bot type the form shows fixed: Scalping when a Scalping strategy opened it (`?botType=Scalping`), since
 * the free select offers Scalping Grid only as 'coming soon...' (docs/spec/01-core-screens.md Start New Bot).
 */
export function fixedBotTypeOf(params: URLSearchParams): 'Scalping' | null {
  return valuesFromQuery(params).botType === 'Scalping' ? 'Scalping' : null;
}

/** The request body: numbers where the schema wants them, leverage only for Future (docs/spec/01-core-screens.md §5). */
export function toPayload(values: StartBotFormValues): StartBotInput {
  const optional = (v: string) => (v.trim() === '' ? undefined : Number(v));
  return {
    botType: values.botType,
    category: values.category as 'Spot' | 'Future',
    selectPair: values.selectPair,
    myStrategy: values.myStrategy,
    amount: Number(values.amount),
    leverage: values.category === 'Future' ? Number(values.leverage) : undefined,
    profitbookat: optional(values.profitbookat),
    sellPausePrice: optional(values.sellPausePrice),
    restartPrice: optional(values.restartPrice),
    stoplossPrice: optional(values.stoplossPrice),
  };
}

export interface AmountRules {
  /** The server's minimum bot amount. */
  minimum: number;
  /** Grid count of the chosen strategy, when known. */
  grids: number | undefined;
  /** Free USDT of the wallet the bot would trade from (running bots' share taken out), when known. */
  free?: { usdt: number; wallet: 'spot' | 'futures' } | undefined;
  /** The pair's live price, when known: the price limits are checked against it. */
  livePrice?: number | null;
}

type LimitField = 'sellPausePrice' | 'restartPrice' | 'stoplossPrice';

/** The price limits' errors by field: the shared rule the running bot's dialog and the start route apply. */
export function priceLimitErrors(
  values: Pick<StartBotFormValues, LimitField>,
  livePrice: number | null,
): Partial<Record<LimitField, string>> {
  const read = (text: string) => readNumberText(text) ?? null;
  const wrong = triggerVsLivePriceErrors(
    {
      pause: read(values.sellPausePrice),
      restart: read(values.restartPrice),
      stoploss: read(values.stoplossPrice),
    },
    livePrice,
  );
  const errors: Partial<Record<LimitField, string>> = {};
  if (wrong.pause) errors.sellPausePrice = wrong.pause;
  if (wrong.restart) errors.restartPrice = wrong.restart;
  if (wrong.stoploss) errors.stoplossPrice = wrong.stoploss;
  return errors;
}

/** The amount's minimum error, if any: first the server minimum, then the minimum by grid count. */
export function amountMinimumError(amount: string, rules: AmountRules): string | undefined {
  const trimmed = amount.trim();
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  if (!Number.isFinite(n)) return undefined;
  if (n < rules.minimum) return botMessages.amountMin(rules.minimum);
  if (rules.grids !== undefined && rules.grids > 0) {
    const min = minimumForGrids(rules.grids);
    if (n < min) return botMessages.insufficientForGrids(rules.grids, min);
  }
  // The server's own words for the same refusal, so the form says it before submitting.
  if (rules.free && n > rules.free.usdt)
    return `${botMessages.insufficientBalance}: ${rules.free.usdt.toFixed(2)} USDT free in your ${rules.free.wallet} wallet.`;
  return undefined;
}

/** The shared schema's messages for every field, plus the minimum amounts it cannot know (docs/spec/01-core-screens.md §5). */
export function startBotResolver(rules: () => AmountRules): Resolver<StartBotFormValues> {
  const schema = zodResolver(startBotInputSchema);
  return async (values, context, options) => {
    // Leverage counts for Future only; the schema accepts text for every number.
    const payload = { ...values, leverage: values.category === 'Future' ? values.leverage : '' };
    const result = await (schema as unknown as Resolver<StartBotFormValues>)(payload, context, options);
    const errors = { ...result.errors };
    if (!errors.botType && values.botType === '')
      errors.botType = { type: 'required', message: botMessages.botTypeRequired };
    if (!errors.amount) {
      const message = amountMinimumError(values.amount, rules());
      if (message) errors.amount = { type: 'min', message };
    }
    const limits = priceLimitErrors(values, rules().livePrice ?? null);
    for (const [field, message] of Object.entries(limits) as [LimitField, string][]) {
      if (!errors[field]) errors[field] = { type: 'validate', message };
    }
    if (Object.keys(errors).length > 0) return { values: {}, errors };
    return { values, errors: {} };
  };
}
