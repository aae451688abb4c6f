/**
 * Parameter changes while a bot runs (docs/spec/02-bots-wallet-account.md), as explicit engine inputs. Each returns a new state;
 * trades they imply (stop and sell) happen on the next `step()`, so they never bypass a pending intent.
 */
import type { BotSettings, GridBotState } from './core/grid-bot.state';
import { NO_TRAIL } from './core/grid-bot.state';
import { newestFirst, pendingOf } from './core/intents';
import { UNSET_BAND } from './core/quiet-band';
import { BOT_STATUS, CYCLE_STATUS, transition } from './core/transitions';
import type { EngineState } from './engine';
import { invariant } from './errors';
import { positionOf } from './fills/ledger';
import { type MoneyInput, money } from './money';
import type { CycleParams, CycleState } from './strategies/cycle/cycle.state';
import type { Intent } from './types';

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

/**
 * Resume a bot its pause price paused (docs/trading-rules.md §2.2 step 2 "restart", asked for by the user
 * instead of reached by the price): it goes Live, so the next step buys grid 1 at the market price on its
 * empty stack and trades its grids from there, exactly as a restart at the restart price does. Its pause
 * price is removed: the price is at or above it or close under it, and the bot would sell and pause again
 * on its first tick above it. The restart price, which only a paused bot uses, goes with it. A bot that is
 * not paused (it restarted on its own meanwhile) is left as it is. While the pause's sale is still out the
 * bot is not yet paused for good (a failed sale puts it back to Live), so the resume is refused then.
 */
export function resumePaused(state: GridBotState): GridBotState {
  if (state.status !== 'Pause') return state;
  invariant(state.pending.length === 0, 'resume: the sale of the pause is still under way');
  return {
    ...state,
    status: transition(BOT_STATUS, 'bot status', state.status, 'restart'),
    stopReason: null,
    settings: { ...state.settings, pausePrice: null, restartPrice: null },
    trail: NO_TRAIL,
    quiet: UNSET_BAND,
  };
}

/**
 * Add `amount` USDT (futures: margin) to a running grid bot. Each grid's order is its share of the
 * investment (`alloc[k] × investment`), so every grid's allotment grows in proportion: a grid bought
 * before keeps its lot, the grids bought from now on buy with the larger allotment. The bot's peak equity
 * grows by the same amount, since its equity does: money put in is neither a gain nor a drawdown.
 */
export function addFunds(state: GridBotState, amount: number): GridBotState {
  invariant(Number.isFinite(amount) && amount > 0, 'add funds: the amount must be positive');
  invariant(state.status !== 'Stopped', 'add funds: the bot is stopped');
  const investment = money(state.account.investment).plus(amount).toNumber();
  const peakEquity = money(state.stats.peakEquity).plus(amount).toNumber();
  return {
    ...state,
    account: { ...state.account, investment },
    stats: { ...state.stats, peakEquity },
    quiet: UNSET_BAND,
  };
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

/** What the exchange's own close of a futures position returned (its trades, docs/trading-rules.md §3). */
export interface ExchangeLiquidation {
  /** Average price the exchange closed at. */
  price: number;
  /** Σ realized PnL of its trades, measured from the average entry. */
  realizedPnl: MoneyInput;
  /** Its commission, in USDT. */
  fee: MoneyInput;
}

/**
 * The exchange liquidated (or otherwise closed) the futures position itself: the exchange is the authority
 * on positions (docs/trading-rules.md §3), so every open lot closes with the exchange's figures, whatever the
 * engine's own liquidation price said. The bot stops with reason `liquidated`. The close returns the
 * position's cost at its average entry plus the exchange's realized PnL, so the lots' booked profits add
 * up to what the exchange booked over the position's life (as the engine's own liquidation does).
 * The runtime reports it back like any intent: `applyFill` of the returned RecordLiquidation.
 */
export function liquidatedByExchange<S extends EngineState>(
  state: S,
  close: ExchangeLiquidation,
): { state: S; intent: Intent | null } {
  if (state.lots.length === 0 || state.pending.length > 0) return { state, intent: null };
  const seq = state.seq + 1;
  const sold = newestFirst(state.lots);
  const qty = sold.reduce((sum, lot) => sum.plus(lot.qty), money(0));
  const back = money(positionOf(state.account).entryNotional).plus(close.realizedPnl);
  const intent: Intent = {
    type: 'RecordLiquidation',
    seq,
    lotIds: sold.map((l) => l.id),
    grids: sold.map((l) => l.grid),
    qty: qty.toFixed(),
    price: close.price,
    quote: (back.isNegative() ? money(0) : back).toFixed(),
    fee: money(close.fee).toFixed(),
  };
  if (state.kind === 'cycle') {
    const status = transition(CYCLE_STATUS, 'cycle', state.status, 'sell');
    const pending = [pendingOf(intent, sold, state.status, state.stopReason)];
    return { state: { ...state, status, lots: [], seq, pending, exitRequest: null }, intent };
  }
  const status =
    state.status === 'Stopped' ? state.status : transition(BOT_STATUS, 'bot status', state.status, 'stop');
  const pending = [pendingOf(intent, sold, state.status, state.stopReason, status)];
  const next = {
    ...state,
    status,
    stopReason: 'liquidated' as const,
    lots: [],
    seq,
    pending,
    exitRequest: null,
    trail: NO_TRAIL,
    quiet: UNSET_BAND,
  };
  return { state: next as S, intent };
}
