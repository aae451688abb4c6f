/**
 * Fills and failures of a Multigrid or Scalping bot's intents. Each intent is resolved once: a fill or
 * failure for a `seq` that is no longer pending (already applied) returns the state unchanged
 * (pending-intent.ts).
 */
import type { GridBotState } from '../core/grid-bot.state';
import { NO_TRAIL } from '../core/grid-bot.state';
import { UNSET_BAND } from '../core/quiet-band';
import { BOT_STATUS, type BotEvent, transition } from '../core/transitions';
import { utcDateKey } from '../core/utc-date';
import { InvariantError, invariant } from '../errors';
import { rebuyBooked } from '../missing-lots';
import { money, toNumber } from '../money';
import type { BotStatus, Fill, Lot, MarketBuy, PendingIntent } from '../types';
import {
  addDailyProfit,
  bookClosed,
  bracketsOf,
  buyFeeUsdt,
  buyIntoPosition,
  type ClosedLot,
  closeLots,
  dustSoldWith,
  insertLots,
  leaveAsDust,
  lotFromBuyFill,
  type SellOutcome,
  sellFromPosition,
  withOpenTotals,
} from './ledger';
import { applyIntentFailed, type FailureRules, failPending, takePending } from './pending-intent';

/** What a fill did, for the runtime's lot and fill rows (and the backtest's output). */
export interface FillOutcome<S> {
  state: S;
  opened: Lot | null;
  closed: ClosedLot[];
  /** False when the fill was a duplicate and nothing changed. */
  applied: boolean;
}

/** Applies a fill of a pending intent of a grid bot (docs/trading-rules.md §2.2: the runtime feeds fills back). */
export function applyGridFill(state: GridBotState, fill: Fill): FillOutcome<GridBotState> {
  const taken = takePending(state, fill.seq);
  if (!taken) return { state, opened: null, closed: [], applied: false };
  const { entry, pending } = taken;
  const intent = entry.intent;
  if (intent.type === 'MarketBuy') {
    invariant(fill.side === 'buy', `intent ${fill.seq} is a buy, fill says ${fill.side}`);
    if (money(fill.qty).lte(0))
      return {
        state: failPending(state, entry, pending, GRID_FAILURES),
        opened: null,
        closed: [],
        applied: true,
      };
    if (intent.missingQty !== undefined) return rebuyFilled(state, pending, intent, fill);
    const params = state.params;
    const g = intent.grid - 1;
    const lot = lotFromBuyFill(intent.seq, fill, {
      grid: intent.grid,
      tpPct: params.type === 'multigrid' ? (params.tpPct[g] ?? 0) : 0,
      tpDownPct: params.type === 'multigrid' ? (params.tpDownPct[g] ?? 0) : 0,
      leverage: state.leverage,
    });
    const lots = insertLots(state.lots, [lot]);
    const fees = money(state.account.fees).plus(buyFeeUsdt(fill)).toNumber();
    const account = withOpenTotals(
      buyIntoPosition({ ...state.account, fees, trades: state.account.trades + 1 }, lot),
      lots,
      pending,
      bracketsOf(state),
    );
    const stats = { ...state.stats, lastBuyTimeMs: fill.timeMs };
    return {
      state: {
        ...state,
        lots,
        pending,
        account,
        stats,
        trail: NO_TRAIL,
        quiet: UNSET_BAND,
        skippedBuy: null,
      },
      opened: lot,
      closed: [],
      applied: true,
    };
  }
  invariant(fill.side === 'sell', `intent ${fill.seq} is a sell, fill says ${fill.side}`);
  if (money(fill.qty).lte(0))
    return {
      state: failPending(state, entry, pending, GRID_FAILURES),
      opened: null,
      closed: [],
      applied: true,
    };
  const reason = intent.type === 'SellLots' ? intent.reason : 'liquidated';
  const dust = dustSoldWith(state.account, intent);
  const outcome = closeLots(entry.lots, toNumber(intent.qty), fill, reason, dust);
  return bookSale(state, pending, outcome, fill.qty, fill.timeMs, 1);
}

/** A re-buy of coins sold outside the platform filled: the newest lot is topped up (missing-lots.ts). */
function rebuyFilled(
  state: GridBotState,
  pending: PendingIntent[],
  intent: MarketBuy,
  fill: Fill,
): FillOutcome<GridBotState> {
  const { lots, account } = rebuyBooked(state, pending, intent, fill);
  return {
    state: { ...state, lots, pending, account, quiet: UNSET_BAND },
    opened: null,
    closed: [],
    applied: true,
  };
}

/**
 * The runtime reports that sell `seq` cannot go out because it is below the exchange's minimum quantity or
 * notional (docs/trading-rules.md §3): its lots are left as dust at the intent's price, and a stop or pause
 * it was part of stands. Idempotent, like a fill.
 */
export function applyGridIntentDust(
  state: GridBotState,
  seq: number,
  timeMs: number,
): FillOutcome<GridBotState> {
  const taken = takePending(state, seq);
  if (!taken) return { state, opened: null, closed: [], applied: false };
  const { entry, pending } = taken;
  invariant(entry.intent.type === 'SellLots', `intent ${seq} is not a sell: it cannot leave dust`);
  const outcome = leaveAsDust(entry.lots, entry.intent.price, timeMs, entry.intent.reason);
  return bookSale(state, pending, outcome, outcome.dustQty, timeMs, 0);
}

/** Books the lots a sale closed (sold, or left as dust) and the bot's totals after it. */
function bookSale(
  state: GridBotState,
  pending: PendingIntent[],
  outcome: SellOutcome,
  soldQty: Fill['qty'],
  timeMs: number,
  trades: 0 | 1,
): FillOutcome<GridBotState> {
  const lots = insertLots(state.lots, outcome.kept);
  const booked = bookClosed(state.account, outcome.closed, outcome, trades);
  const account = withOpenTotals(sellFromPosition(booked, soldQty), lots, pending, bracketsOf(state));
  const profit = outcome.closed.reduce((s, c) => s.plus(c.profit), money(0)).toNumber();
  const stats = {
    ...state.stats,
    datewiseProfit: addDailyProfit(state.stats.datewiseProfit, utcDateKey(timeMs), profit),
  };
  const newestChanged = lots[lots.length - 1]?.id !== state.lots[state.lots.length - 1]?.id;
  return {
    state: {
      ...state,
      lots,
      pending,
      account,
      stats,
      trail: newestChanged ? NO_TRAIL : state.trail,
      quiet: UNSET_BAND,
    },
    opened: null,
    closed: outcome.closed,
    applied: true,
  };
}

const UNDO: Readonly<Record<string, BotEvent>> = {
  'Pause>Live': 'undo_pause',
  'Stopped>Live': 'undo_stop_from_live',
  'Stopped>Pause': 'undo_stop_from_pause',
};

/**
 * A grid bot's failed intent: a dropped buy ends any trailing buy; a failed sell undoes a stop or pause it
 * caused, if still current. Either way the quiet band is recomputed on the next tick.
 */
const GRID_FAILURES: FailureRules<GridBotState> = {
  buyFailed: (state, pending) => ({ ...state, pending, trail: NO_TRAIL, quiet: UNSET_BAND }),
  sellFailed(state, entry) {
    let status: BotStatus = state.status;
    if (entry.setStatus === state.status && entry.prevStatus !== state.status) {
      const event = UNDO[`${state.status}>${entry.prevStatus}`];
      if (event === undefined) throw new InvariantError(`cannot undo ${entry.prevStatus} → ${state.status}`);
      status = transition(BOT_STATUS, 'bot status', state.status, event);
    }
    const stopReason = status !== state.status ? entry.prevStopReason : state.stopReason;
    return { status, stopReason, trail: NO_TRAIL, quiet: UNSET_BAND };
  },
};

/**
 * The runtime reports intent `seq` failed or rejected (nothing filled): the bot goes on as if it had
 * not been issued. A buy is dropped (a later tick may buy again); a sell's lots return to the stack.
 */
export function applyGridIntentFailed(state: GridBotState, seq: number): GridBotState {
  return applyIntentFailed(state, seq, GRID_FAILURES);
}
