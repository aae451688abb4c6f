import {
  type CycleState,
  type EngineState,
  editCycle,
  type GridBotState,
  setNewCyclesAllowed,
  setOverbuyProtection,
  setPriceTriggers,
  setProfitBook,
  stop,
  stopAndSell,
} from '@gridbot/engine';
import { z } from 'zod';
import type { CommandRow } from './bot-repo';

const nullableNumber = z.number().finite().positive().nullable();

/** Commands the API queues for a running bot (docs/spec/02-bots-wallet-account.md §7), as they are stored in bot_commands. */
export const botCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('stop_sell') }),
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
  z.object({
    type: z.literal('edit_cycle'),
    buyPrice: z.number().finite().positive(),
    sellPrice: z.number().finite().positive(),
    stopLoss: nullableNumber,
    cycles: z.number().int().min(1),
  }),
]);
export type BotCommand = z.infer<typeof botCommandSchema>;

function gridOnly(state: EngineState): GridBotState {
  if (state.kind === 'cycle') throw new Error('this command applies to grid bots only');
  return state;
}

function cycleOnly(state: EngineState): CycleState {
  if (state.kind !== 'cycle') throw new Error('this command applies to cycles only');
  return state;
}

/** The engine input a queued command stands for (commands are explicit engine inputs). */
export function applyCommand(state: EngineState, row: Pick<CommandRow, 'type' | 'payload'>): EngineState {
  const command = botCommandSchema.parse({ ...row.payload, type: row.type });
  switch (command.type) {
    case 'stop':
      return stop(state);
    case 'stop_sell':
      return stopAndSell(state);
    case 'sltp':
      return setPriceTriggers(gridOnly(state), {
        pausePrice: command.pausePrice,
        restartPrice: command.restartPrice,
        stoplossPrice: command.stoplossPrice,
      });
    case 'overbuy':
      return setOverbuyProtection(gridOnly(state), { active: command.active, value: command.value });
    case 'profit_book':
      return setProfitBook(gridOnly(state), command.pct);
    case 'new_cycles':
      // A cycle is one buy/sell loop chosen by the user, not a grid-1 cycle: the limit leaves it alone.
      return state.kind === 'cycle' ? state : setNewCyclesAllowed(state, command.allowed);
    case 'edit_cycle':
      return editCycle(cycleOnly(state), {
        buyPrice: command.buyPrice,
        sellPrice: command.sellPrice,
        stopLoss: command.stopLoss,
        cycles: command.cycles,
      });
  }
}
