import { missingLotsChoiceSchema } from '@gridbot/shared';
import { z } from 'zod';

const nullableNumber = z.number().finite().positive().nullable();

/** Commands the API queues for a running bot (docs/spec/02-bots-wallet-account.md §7), as they are stored in bot_commands. */
export const botCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('stop_sell') }),
  /** Resume of a bot its pause price paused: Live again, without its pause and restart prices. */
  z.object({ type: z.literal('resume_paused') }),
  /** USDT added to the investment (the route has raised the bot's row and checked the balance). */
  z.object({ type: z.literal('add_funds'), amount: z.number().finite().positive() }),
  z.object({
    type: z.literal('sltp'),
    pausePrice: nullableNumber,
    restartPrice: nullableNumber,
    stoplossPrice: nullableNumber,
  }),
  z.object({
    type: z.literal('overbuy'),
    active: z.boolean(),
    value: z.number().int().positive().nullable(),
  }),
  z.object({ type: z.literal('profit_book'), pct: z.number().positive().nullable() }),
  /** Profit limit (docs/product.md §5): at zero credit no new grid-1 cycle opens; a subscription lifts it. */
  z.object({ type: z.literal('new_cycles'), allowed: z.boolean() }),
  /** Resume of a bot whose coins were sold outside the platform: buy them again, or drop the missing lots. */
  z.object({ type: z.literal('missing_lots'), choice: missingLotsChoiceSchema }),
  /** A range grid's stops and trailing (docs/trading-rules.md §2.6); absent fields stay, null clears. */
  z.object({
    type: z.literal('grid_edit'),
    edit: z.record(z.string(), z.union([z.number(), z.boolean(), z.null()])),
  }),
  z.object({
    type: z.literal('edit_cycle'),
    buyPrice: z.number().finite().positive(),
    sellPrice: z.number().finite().positive(),
    stopLoss: nullableNumber,
    cycles: z.number().int().min(1),
  }),
]);
export type BotCommand = z.infer<typeof botCommandSchema>;
