/**
 * Parameter changes while a bot runs (docs/spec/02-bots-wallet-account.md), as explicit engine inputs. Each returns a new state;
 * trades they imply (stop and sell) happen on the next `step()`, so they never bypass a pending intent.
 */
import type { BotSettings, GridBotState } from './core/grid-bot.state';
import { UNSET_BAND } from './core/quiet-band';
import { BOT_STATUS, CYCLE_STATUS, transition } from './core/transitions';
import type { EngineState } from './engine';
import type { CycleParams, CycleState } from './strategies/cycle/cycle.state';

/** Sell-all-and-pause, restart and stoploss prices; `null` resets one, `undefined` leaves it. */
export interface PriceTriggers {
  pausePrice?: number | null;
  restartPrice?: number | null;
  stoplossPrice?: number | null;
}

export function setPriceTriggers(state: GridBotState, triggers: PriceTriggers): GridBotState {
  const s = state.settings;
  const settings: BotSettings = {
    ...s,
    pausePrice: triggers.pausePrice === undefined ? s.pausePrice : triggers.pausePrice,
    restartPrice: triggers.restartPrice === undefined ? s.restartPrice : triggers.restartPrice,
    stoplossPrice: triggers.stoplossPrice === undefined ? s.stoplossPrice : triggers.stoplossPrice,
  };
  return { ...state, settings, quiet: UNSET_BAND };
}

/** Overbuy protection: active with value G blocks buying grids above G. Reset: `{active: false, value: null}`. */
export function setOverbuyProtection(
  state: GridBotState,
  overbuy: { active: boolean; value: number | null },
): GridBotState {
  return {
    ...state,
    settings: { ...state.settings, overbuy: { active: overbuy.active, value: overbuy.value } },
    quiet: UNSET_BAND,
  };
}

/** Profit book & stop at `pct` % of investment; null resets. */
export function setProfitBook(state: GridBotState, pct: number | null): GridBotState {
  return { ...state, settings: { ...state.settings, profitBookPct: pct }, quiet: UNSET_BAND };
}

/** Whether an empty stack may open a new cycle with grid 1 (docs/product.md §5 profit limit). */
export function setNewCyclesAllowed(state: GridBotState, allowed: boolean): GridBotState {
  return { ...state, settings: { ...state.settings, newCyclesAllowed: allowed }, quiet: UNSET_BAND };
}

/** Stop without selling: no new trades; open lots stay open. A stopped bot stays stopped. */
export function stop<S extends EngineState>(state: S): S {
  if (state.status === 'Stopped' || state.status === 'Completed') return state;
  if (state.kind === 'cycle') {
    return {
      ...state,
      status: transition(CYCLE_STATUS, 'cycle', state.status, 'stop'),
      stopReason: 'manual',
    };
  }
  return {
    ...state,
    status: transition(BOT_STATUS, 'bot status', state.status, 'stop'),
    stopReason: 'manual',
  };
}

/** Stop and sell everything at market (futures: close the position). The sell is issued by the next step(). */
export function stopAndSell<S extends EngineState>(state: S): S {
  if (state.status === 'Completed') return state;
  if (state.status === 'Stopped' && state.lots.length === 0 && state.pending.length === 0) return state;
  if (state.kind === 'cycle') return { ...state, exitRequest: 'stop_and_sell' };
  return { ...state, exitRequest: 'stop_and_sell', quiet: UNSET_BAND };
}

/** Edit a running cycle (buy/sell/stop-loss prices, number of cycles); fields left undefined stay. */
export function editCycle(state: CycleState, edit: Partial<CycleParams>): CycleState {
  const params: CycleParams = {
    buyPrice: edit.buyPrice ?? state.params.buyPrice,
    sellPrice: edit.sellPrice ?? state.params.sellPrice,
    stopLoss: edit.stopLoss === undefined ? state.params.stopLoss : edit.stopLoss,
    cycles: edit.cycles ?? state.params.cycles,
    amount: edit.amount ?? state.params.amount,
  };
  return { ...state, params };
}
