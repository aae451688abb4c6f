import { z } from 'zod';
import { readNumberText } from '../common/number-text';
import { SYMBOLS } from '../markets/market-rules';
import { BOT_STOP_REASONS, type BotStopReason } from './bot-reason';
import { profitBookPctError, triggerPriceError } from './bot-settings.rules';
import { ADD_FUNDS_MAX_USDT, ADD_FUNDS_MIN_USDT, botMessages as m } from './bots.messages';

/** A number sent as a number or typed digits (common/number-text.ts); '' and null mean absent. */
function optionalNumber(message: string) {
  return z
    .union([z.number(), z.string(), z.null()], { error: message })
    .optional()
    .transform((v, ctx) => {
      const n = readNumberText(v);
      if (n === undefined) return undefined;
      if (n === null) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return n;
    });
}

/** A required number sent as a number or typed digits (common/number-text.ts). */
function requiredNumber(requiredMessage: string, numberMessage: string) {
  return z.union([z.number(), z.string()], { error: requiredMessage }).transform((v, ctx) => {
    const n = readNumberText(v);
    if (n === undefined) {
      ctx.addIssue({ code: 'custom', message: requiredMessage });
      return z.NEVER;
    }
    if (n === null) {
      ctx.addIssue({ code: 'custom', message: numberMessage });
      return z.NEVER;
    }
    return n;
  });
}

/**
 * POST /api/startbotdata and /api/startscalp (docs/spec/01-core-screens.md §3 start payload, §5 Start bot). The minimum amounts
 * depend on the strategy and the server, so the route checks them after this schema.
 */
export const startBotInputSchema = z
  .object({
    botType: z
      .string({ error: m.botTypeRequired })
      .trim()
      .min(1, m.botTypeRequired)
      .transform((v) => v.toLowerCase())
      .refine((v) => v === 'multigrid' || v === 'scalping', m.botTypeRequired)
      .transform((v) => v as 'multigrid' | 'scalping')
      .optional(),
    category: z.enum(['Spot', 'Future'], { error: m.categoryRequired }),
    selectPair: z
      .string({ error: m.pairRequired })
      .trim()
      .min(1, m.pairRequired)
      .transform((v) => v.toUpperCase().replace('/', ''))
      .refine((v) => SYMBOLS.includes(v), m.pairRequired),
    myStrategy: z.string({ error: m.strategyRequired }).trim().min(1, m.strategyRequired).max(40),
    amount: requiredNumber(m.amountRequired, m.amountNumber).refine((n) => n > 0, m.amountNumber),
    leverage: optionalNumber(m.leverageRequired),
    profitbookat: optionalNumber(m.profitBookNumber).refine(
      (v) => v === undefined || (v >= 1 && v <= 1000),
      m.profitBookRange,
    ),
    sellPausePrice: optionalNumber(m.sellPauseNumber).refine(
      (v) => v === undefined || v > 0,
      m.sellPauseNumber,
    ),
    restartPrice: optionalNumber(m.restartNumber).refine((v) => v === undefined || v > 0, m.restartNumber),
    stoplossPrice: optionalNumber(m.stoplossNumber).refine((v) => v === undefined || v > 0, m.stoplossNumber),
  })
  .superRefine((v, ctx) => {
    if (v.category !== 'Future') return;
    if (v.leverage === undefined)
      ctx.addIssue({ code: 'custom', path: ['leverage'], message: m.leverageRequired });
    else if (v.leverage < 1) ctx.addIssue({ code: 'custom', path: ['leverage'], message: m.leverageMin });
    else if (v.leverage > 10) ctx.addIssue({ code: 'custom', path: ['leverage'], message: m.leverageMax });
    else if (!Number.isInteger(v.leverage))
      ctx.addIssue({ code: 'custom', path: ['leverage'], message: m.leverageWhole });
  });
export type StartBotInput = z.input<typeof startBotInputSchema>;
export type StartBotParsed = z.output<typeof startBotInputSchema>;

/** Every running-bot call sends the bot id (docs/spec/02-bots-wallet-account.md §7). Extra fields (botData, totalPnl) are ignored. */
export const botIdInputSchema = z.looseObject({
  botID: z.string({ error: m.botNotFound }).trim().min(1, m.botNotFound).max(64),
});

/** What Resume does with the coins a bot's lots hold but the exchange account no longer has. */
export const missingLotsChoiceSchema = z.enum(['rebuy', 'drop']);
export type MissingLotsChoice = z.infer<typeof missingLotsChoiceSchema>;

/** POST resume: the bot, and (for a bot paused over coins sold outside the platform) the user's choice. */
export const resumeBotInputSchema = z.looseObject({
  botID: botIdInputSchema.shape.botID,
  missingLots: missingLotsChoiceSchema.optional(),
});
export type ResumeBotInput = z.infer<typeof resumeBotInputSchema>;

/**
 * POST add funds (ours): the bot and the USDT (futures: margin) to add to its investment. The balance, and
 * the exchange's minimum order of each grid at the new allotment, are checked by the route.
 */
export const addFundsInputSchema = z.looseObject({
  botID: botIdInputSchema.shape.botID,
  amount: requiredNumber(m.amountRequired, m.amountNumber)
    .refine((n) => n >= ADD_FUNDS_MIN_USDT, m.addFundsMin(ADD_FUNDS_MIN_USDT))
    .refine((n) => n <= ADD_FUNDS_MAX_USDT, m.addFundsMax(ADD_FUNDS_MAX_USDT)),
});
export type AddFundsInput = z.input<typeof addFundsInputSchema>;

/** POST /api/copybotstrategy: the opaque token of a Copy BOTs card. */
export const copyBotInputSchema = z.object({
  copyToken: z.string({ error: m.botNotFound }).trim().min(1, m.botNotFound).max(256, m.botNotFound),
});

/** GET /api/livebotdata filters (ours): pair, category and a minimum runtime in days (at least 1). */
export const topBotsQuerySchema = z.object({
  pair: z
    .string()
    .max(20)
    .optional()
    .transform((v) => v?.toUpperCase().replace('/', '') || undefined),
  category: z.enum(['Spot', 'Future']).optional().catch(undefined),
  minDays: z.coerce.number().min(0).max(3650).optional().catch(undefined),
});
export type TopBotsQuery = z.infer<typeof topBotsQuerySchema>;

const priceOrNull = z
  .union([z.number(), z.string(), z.null()], { error: m.priceNumber })
  .optional()
  .transform((v, ctx) => {
    const n = readNumberText(v);
    if (n === undefined) return null;
    const error = triggerPriceError(n ?? Number.NaN);
    if (error) {
      ctx.addIssue({ code: 'custom', message: error });
      return z.NEVER;
    }
    return n;
  });

/** POST /api/sltpedit; null values reset. Live-price checks happen on the server with the current price. */
export const sltpEditInputSchema = z.looseObject({
  botID: z.string().trim().min(1, m.botNotFound).max(64),
  sellAllAndPausePrice: priceOrNull,
  restartPrice: priceOrNull,
  stoplossPrice: priceOrNull,
});

/** POST /api/gridprotectionadd; reset sends null and inactive. Bounds depend on the bot's grid count. */
export const overbuyInputSchema = z.looseObject({
  botID: z.string().trim().min(1, m.botNotFound).max(64),
  overbuyProtectionValue: z.union([z.number(), z.string(), z.null()]).optional(),
  protectionActive: z.boolean().default(true),
});

/** POST /api/editprofitbookat; null resets. */
export const profitBookInputSchema = z.looseObject({
  botID: z.string().trim().min(1, m.botNotFound).max(64),
  profitBookValue: z
    .union([z.number(), z.string(), z.null()], { error: m.profitBookMin })
    .optional()
    .transform((v, ctx) => {
      const n = readNumberText(v);
      if (n === undefined) return null;
      const error = profitBookPctError(n ?? Number.NaN);
      if (error) {
        ctx.addIssue({ code: 'custom', message: error });
        return z.NEVER;
      }
      return n;
    }),
});

/** GET /api/botfills.csv?botID= (ours): a bot's fills as CSV. */
export const botFillsCsvQuerySchema = z.object({
  botID: z.string({ error: m.botNotFound }).trim().min(1, m.botNotFound).max(64),
});

const dayField = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);

/**
 * GET /api/historyfills.csv (ours): the fills of the History tab's bots, filtered like the screen (pair,
 * stop date from/to as YYYY-MM-DD in UTC, outcome by total PnL).
 */
export const historyCsvQuerySchema = z.object({
  /** `range`: the range grids (docs/trading-rules.md §2.6). */
  type: z.enum(['multigrid', 'scalping', 'cycle', 'range']).default('multigrid'),
  pair: z
    .string()
    .max(20)
    .optional()
    .transform((v) => v?.toUpperCase().replace('/', '') || undefined),
  from: dayField,
  to: dayField,
  outcome: z.enum(['profit', 'loss']).optional().catch(undefined),
  reason: z
    .enum(BOT_STOP_REASONS as [BotStopReason, ...BotStopReason[]])
    .optional()
    .catch(undefined),
});
export type HistoryCsvQuery = z.infer<typeof historyCsvQuerySchema>;

/** Whether a History row passes the screen's filters (web and CSV export apply the same rule). */
export function historyRowMatches(
  row: {
    symbol: string;
    botstoptime: string | null;
    totalpnl: number;
    stopReason?: string | null;
    positionLeftOpen?: boolean;
  },
  filter: {
    pair?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
    outcome?: 'profit' | 'loss' | undefined;
    /** Why the bot stopped (bot-reason.ts). */
    reason?: BotStopReason | undefined;
  },
): boolean {
  if (filter.pair && row.symbol !== filter.pair) return false;
  const day = row.botstoptime?.slice(0, 10);
  if (filter.from && (!day || day < filter.from)) return false;
  if (filter.to && (!day || day > filter.to)) return false;
  // A position left open has realised nothing yet: it is neither outcome until it is closed.
  if (filter.outcome && row.positionLeftOpen) return false;
  if (filter.outcome === 'profit' && !(row.totalpnl > 0)) return false;
  if (filter.outcome === 'loss' && !(row.totalpnl < 0)) return false;
  if (filter.reason && row.stopReason !== filter.reason) return false;
  return true;
}
