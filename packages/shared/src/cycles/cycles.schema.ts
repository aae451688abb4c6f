import { z } from 'zod';
import { missingLotsChoiceSchema } from '../bots/start-bot.schema';
import { readNumberText } from '../common/number-text';
import { SYMBOLS } from '../markets/market-rules';
import { MAX_CYCLE_COUNT, cycleMessages as m } from './cycles.messages';

/** A number sent as a number or typed digits (common/number-text.ts); '' and null are absent. */
function looseNumber(requiredMessage: string, numberMessage: string) {
  return z
    .union([z.number(), z.string(), z.null()], { error: requiredMessage })
    .optional()
    .transform((v, ctx) => {
      const n = readNumberText(v);
      if (n === undefined) return undefined;
      if (n === null) {
        ctx.addIssue({ code: 'custom', message: numberMessage });
        return z.NEVER;
      }
      return n;
    });
}

function required(requiredMessage: string, numberMessage: string) {
  return looseNumber(requiredMessage, numberMessage).refine((n) => n !== undefined, requiredMessage);
}

const positivePrice = (requiredMessage: string) =>
  required(requiredMessage, m.priceNumber)
    .refine((n) => (n ?? 0) > 0, m.priceNumber)
    .transform((n) => n as number);

const cycleCount = required(m.cycleCountRequired, m.cycleCountRange)
  .refine((n) => Number.isInteger(n) && (n ?? 0) >= 1 && (n ?? 0) <= MAX_CYCLE_COUNT, m.cycleCountRange)
  .transform((n) => n as number);

const stopLoss = looseNumber(m.priceNumber, m.priceNumber).refine(
  (n) => n === undefined || n > 0,
  m.priceNumber,
);

/**
 * POST /api/startcycledata (docs/spec/02-bots-wallet-account.md §3 start cycle payload). The exchange minimum depends on the pair, so the
 * route checks the amount against the market rules after this schema.
 */
export const startCycleInputSchema = z
  .object({
    category: z.enum(['Spot', 'Future'], { error: m.categoryRequired }),
    pair: z
      .string({ error: m.pairRequired })
      .trim()
      .min(1, m.pairRequired)
      .transform((v) => v.toUpperCase().replace('/', ''))
      .refine((v) => SYMBOLS.includes(v), m.pairRequired),
    amount: required(m.amountRequired, m.amountNumber)
      .refine((n) => (n ?? 0) > 0, m.amountNumber)
      .transform((n) => n as number),
    priceReachAt: positivePrice(m.buyPriceRequired),
    sellPriceAt: positivePrice(m.sellPriceRequired),
    stopLossAt: stopLoss,
    cycleCount,
    leverage: looseNumber(m.leverageRange, m.leverageRange),
  })
  .superRefine((v, ctx) => {
    if (v.priceReachAt >= v.sellPriceAt)
      ctx.addIssue({ code: 'custom', path: ['sellPriceAt'], message: m.buyBelowSell });
    if (v.stopLossAt !== undefined && v.stopLossAt > v.priceReachAt) {
      ctx.addIssue({ code: 'custom', path: ['stopLossAt'], message: m.stopLossAboveBuy });
    }
    if (v.category === 'Future') {
      const lev = v.leverage;
      if (lev === undefined || !Number.isInteger(lev) || lev < 1 || lev > 10) {
        ctx.addIssue({ code: 'custom', path: ['leverage'], message: m.leverageRange });
      }
    }
  });
export type StartCycleInput = z.input<typeof startCycleInputSchema>;
export type StartCycle = z.output<typeof startCycleInputSchema>;

const cycleId = z.string({ error: m.cycleNotFound }).trim().min(1, m.cycleNotFound).max(64);

/** POST /api/editcycle {cycle_id, buy_price, sell_price, stop_loss, no_of_cycle}. */
export const editCycleInputSchema = z
  .object({
    cycle_id: cycleId,
    buy_price: positivePrice(m.buyPriceRequired),
    sell_price: positivePrice(m.sellPriceRequired),
    stop_loss: stopLoss,
    no_of_cycle: cycleCount,
  })
  .superRefine((v, ctx) => {
    if (v.buy_price >= v.sell_price)
      ctx.addIssue({ code: 'custom', path: ['sell_price'], message: m.buyBelowSell });
    if (v.stop_loss !== undefined && v.stop_loss > v.buy_price) {
      ctx.addIssue({ code: 'custom', path: ['stop_loss'], message: m.stopLossAboveBuy });
    }
  });
export type EditCycleInput = z.input<typeof editCycleInputSchema>;
export type EditCycle = z.output<typeof editCycleInputSchema>;

/** POST /api/stopcycle and /api/stopcyclewithsell {cycle_id}. */
export const stopCycleInputSchema = z.object({ cycle_id: cycleId });

/** POST resume: the cycle, and (for one paused over coins sold outside the platform) the user's choice. */
export const resumeCycleInputSchema = stopCycleInputSchema.extend({
  missingLots: missingLotsChoiceSchema.optional(),
});
export type ResumeCycleInput = z.infer<typeof resumeCycleInputSchema>;
