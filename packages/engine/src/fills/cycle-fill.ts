/**
 * Fills and failures of a cycle's intents (docs/trading-rules.md §2.4).
 */
import { CYCLE_STATUS, transition } from '../core/transitions';
import { utcDateKey } from '../core/utc-date';
import { invariant } from '../errors';
import { rebuyBooked } from '../missing-lots';
import { money, toNumber } from '../money';
import type { CycleState } from '../strategies/cycle/cycle.state';
import type { Fill, MarketBuy, PendingIntent, SellReason, StopReason } from '../types';
import type { FillOutcome } from './grid-fill';
import {
  addDailyProfit,
  bookClosed,
  bracketsOf,
  buyFeeUsdt,
  buyIntoPosition,
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

/** A re-buy of coins sold outside the platform filled: the held lot is topped up; the cycle keeps holding. */
function cycleRebuyFilled(
  state: CycleState,
  pending: PendingIntent[],
  intent: MarketBuy,
  fill: Fill,
): FillOutcome<CycleState> {
  const { lots, account } = rebuyBooked(state, pending, intent, fill);
  return { state: { ...state, lots, pending, account }, opened: null, closed: [], applied: true };
}

/** Applies a fill of the cycle's pending buy or sell. */
export function applyCycleFill(state: CycleState, fill: Fill): FillOutcome<CycleState> {
  const taken = takePending(state, fill.seq);
  if (!taken) return { state, opened: null, closed: [], applied: false };
  const { entry, pending } = taken;
  const intent = entry.intent;
  if (intent.type === 'MarketBuy') {
    invariant(fill.side === 'buy', `intent ${fill.seq} is a buy, fill says ${fill.side}`);
    if (money(fill.qty).lte(0))
      return {
        state: failPending(state, entry, pending, CYCLE_FAILURES),
        opened: null,
        closed: [],
        applied: true,
      };
    if (intent.missingQty !== undefined) return cycleRebuyFilled(state, pending, intent, fill);
    const lot = lotFromBuyFill(intent.seq, fill, {
      grid: 1,
      tpPct: 0,
      tpDownPct: 0,
      leverage: state.leverage,
    });
    const lots = [lot];
    const fees = money(state.account.fees).plus(buyFeeUsdt(fill)).toNumber();
    const account = withOpenTotals(
      buyIntoPosition({ ...state.account, fees, trades: state.account.trades + 1 }, lot),
      lots,
      pending,
      bracketsOf(state),
    );
    const status = transition(CYCLE_STATUS, 'cycle', state.status, 'bought');
    const stats = { ...state.stats, lastBuyTimeMs: fill.timeMs };
    return {
      state: { ...state, status, lots, pending, account, stats, skippedBuy: null },
      opened: lot,
      closed: [],
      applied: true,
    };
  }
  invariant(fill.side === 'sell', `intent ${fill.seq} is a sell, fill says ${fill.side}`);
  if (money(fill.qty).lte(0))
    return {
      state: failPending(state, entry, pending, CYCLE_FAILURES),
      opened: null,
      closed: [],
      applied: true,
    };
  const reason = intent.type === 'SellLots' ? intent.reason : 'liquidated';
  const dust = dustSoldWith(state.account, intent);
  const outcome = closeLots(entry.lots, toNumber(intent.qty), fill, reason, dust);
  return bookCycleSale(state, entry, pending, outcome, reason, fill.qty, fill.timeMs, 1);
}

/** The cycle's sell `seq` cannot go out (below the exchange's minimum): its lot is left as dust. */
export function applyCycleIntentDust(
  state: CycleState,
  seq: number,
  timeMs: number,
): FillOutcome<CycleState> {
  const taken = takePending(state, seq);
  if (!taken) return { state, opened: null, closed: [], applied: false };
  const { entry, pending } = taken;
  invariant(entry.intent.type === 'SellLots', `intent ${seq} is not a sell: it cannot leave dust`);
  const reason = entry.intent.reason;
  const outcome = leaveAsDust(entry.lots, entry.intent.price, timeMs, reason);
  return bookCycleSale(state, entry, pending, outcome, reason, outcome.dustQty, timeMs, 0);
}

/** Books the lot a cycle's sale closed (sold, or left as dust) and moves the cycle on. */
function bookCycleSale(
  state: CycleState,
  entry: PendingIntent,
  pending: PendingIntent[],
  outcome: SellOutcome,
  reason: SellReason,
  soldQty: Fill['qty'],
  timeMs: number,
  trades: 0 | 1,
): FillOutcome<CycleState> {
  const lots = insertLots(state.lots, outcome.kept);
  const account = withOpenTotals(
    sellFromPosition(bookClosed(state.account, outcome.closed, outcome, trades), soldQty),
    lots,
    pending,
    bracketsOf(state),
  );
  const profit = outcome.closed.reduce((s, c) => s.plus(c.profit), money(0)).toNumber();
  const stats = {
    ...state.stats,
    datewiseProfit: addDailyProfit(state.stats.datewiseProfit, utcDateKey(timeMs), profit),
  };
  let cyclesCompleted = state.cyclesCompleted;
  let stopReason: StopReason | null = state.stopReason;
  let status = state.status;
  const stopped = status === 'Stopped' || entry.prevStatus === 'Stopped';
  if (lots.length > 0) {
    // Partly filled: still holding the rest; the next tick decides again.
    status = transition(CYCLE_STATUS, 'cycle', status, stopped ? 'sell_failed_stopped' : 'sell_failed');
  } else if (reason === 'take_profit' && status !== 'Stopped') {
    cyclesCompleted += 1;
    const done = cyclesCompleted >= state.params.cycles;
    status = transition(CYCLE_STATUS, 'cycle', status, done ? 'sold_last' : 'sold_again');
    if (done) stopReason = 'completed';
  } else {
    if (reason === 'take_profit') cyclesCompleted += 1;
    else
      stopReason =
        reason === 'manual_sell' ? 'manual_sell' : reason === 'liquidated' ? 'liquidated' : 'stoploss';
    status = transition(CYCLE_STATUS, 'cycle', status, 'sold_stop');
  }
  return {
    state: { ...state, status, stopReason, cyclesCompleted, lots, pending, account, stats },
    opened: null,
    closed: outcome.closed,
    applied: true,
  };
}

/** A cycle's failed intent: a buy goes back to waiting, a sell back to holding (or stays stopped). */
const CYCLE_FAILURES: FailureRules<CycleState> = {
  buyFailed: (state, pending, entry) =>
    // A failed re-buy leaves the cycle holding what it held (the runtime pauses it again).
    entry.intent.type === 'MarketBuy' && entry.intent.missingQty !== undefined
      ? { ...state, pending }
      : {
          ...state,
          pending,
          status: transition(CYCLE_STATUS, 'cycle', state.status, 'buy_failed'),
        },
  sellFailed(state, entry) {
    const stopped = state.status === 'Stopped' || entry.prevStatus === 'Stopped';
    const event = stopped ? 'sell_failed_stopped' : 'sell_failed';
    return { status: transition(CYCLE_STATUS, 'cycle', state.status, event) };
  },
};

/** Intent `seq` failed (nothing filled): the cycle goes on as if it had not been issued (pending-intent.ts). */
export function applyCycleIntentFailed(state: CycleState, seq: number): CycleState {
  return applyIntentFailed(state, seq, CYCLE_FAILURES);
}
