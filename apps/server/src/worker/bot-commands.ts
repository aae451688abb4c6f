import {
  addFunds,
  type CycleState,
  type EngineState,
  editCycle,
  type GridBotState,
  resumePaused,
  setNewCyclesAllowed,
  setOverbuyProtection,
  setPriceTriggers,
  setProfitBook,
  stop,
  stopAndSell,
} from '@gridbot/engine';
import { botCommandSchema } from '../modules/bots';
import type { CommandRow } from './commands.repo';

export { type BotCommand, botCommandSchema } from '../modules/bots';

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
    case 'resume_paused':
      return resumePaused(gridOnly(state));
    case 'add_funds':
      return addFunds(gridOnly(state), command.amount);
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
    case 'missing_lots':
      // It needs the account's balance: the runner applies it (BotRunner.resolveMissingLots).
      throw new Error('missing lots are resolved by the runner');
    case 'grid_edit':
      // A range grid's: its own runner applies it (RangeRunner).
      throw new Error('this command applies to range grids only');
    case 'edit_cycle':
      return editCycle(cycleOnly(state), {
        buyPrice: command.buyPrice,
        sellPrice: command.sellPrice,
        stopLoss: command.stopLoss,
        cycles: command.cycles,
      });
  }
}
