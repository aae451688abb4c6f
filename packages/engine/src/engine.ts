/**
 * The engine's entry points (docs/trading-rules.md §2): `step(state, tick, rules) → { state, intents }`,
 * `applyFill(state, fill) → state` and `applyIntentFailed(state, seq) → state` for every strategy.
 * Pure: no I/O, no clock, no randomness; the same inputs give the same outputs.
 */
import type { GridBotState } from './core/grid-bot.state';
import { NO_INTENTS } from './core/intents';
import { eventBand, inQuietBand, type QuietBand, UNSET_BAND } from './core/quiet-band';
import { utcDateKey } from './core/utc-date';
import { applyCycleFill, applyCycleIntentDust, applyCycleIntentFailed } from './fills/cycle-fill';
import {
  applyGridFill,
  applyGridIntentDust,
  applyGridIntentFailed,
  type FillOutcome,
} from './fills/grid-fill';
import { addDailyProfit } from './fills/ledger';
import { money } from './money';
import type { EngineRules } from './rules';
import type { CycleState } from './strategies/cycle/cycle.state';
import { cycleEventBand, stepCycle } from './strategies/cycle/cycle.step';
import { MULTIGRID_HOOKS, stepMultigrid } from './strategies/multigrid/multigrid.step';
import { SCALPING_HOOKS, stepScalping } from './strategies/scalping/scalping.step';
import type { Fill, StepResult, Tick } from './types';

/** Any bot the engine runs. `kind` tells them apart. */
export type EngineState = GridBotState | CycleState;

/**
 * One tick. Returns the new state and the intents to execute, in order. While any intent of the bot is
 * pending (issued, not yet filled or failed) it issues nothing and returns the state unchanged.
 */
export function step<S extends EngineState>(state: S, tick: Tick, rules: EngineRules): StepResult<S> {
  if (state.kind !== 'cycle') {
    // Hot path: inside the quiet band nothing can change (core/quiet-band.ts).
    if (inQuietBand(state.quiet, tick)) return { state, intents: NO_INTENTS };
  }
  switch (state.kind) {
    case 'multigrid':
      return stepMultigrid(state, tick, rules) as StepResult<S>;
    case 'scalping':
      return stepScalping(state, tick, rules) as StepResult<S>;
    case 'cycle':
      return stepCycle(state, tick, rules) as StepResult<S>;
  }
}

/**
 * The event band of any bot for the backtest's path model (core/quiet-band.ts `eventBand`): the levels at
 * which its next rule fires, read from the rules `step` applies.
 */
export function eventBandOf(state: EngineState): QuietBand {
  switch (state.kind) {
    case 'multigrid':
      return eventBand(state, MULTIGRID_HOOKS);
    case 'scalping':
      return eventBand(state, SCALPING_HOOKS);
    case 'cycle':
      return cycleEventBand(state);
  }
}

/** Applies the fill of a pending intent, with the lots it opened or closed. Idempotent per `fill.seq`. */
export function applyFillDetailed<S extends EngineState>(state: S, fill: Fill): FillOutcome<S> {
  return (
    state.kind === 'cycle' ? applyCycleFill(state, fill) : applyGridFill(state, fill)
  ) as FillOutcome<S>;
}

/** Applies the fill of a pending intent. A fill for an intent already resolved changes nothing. */
export function applyFill<S extends EngineState>(state: S, fill: Fill): S {
  return applyFillDetailed(state, fill).state;
}

/**
 * A futures funding payment at `timeMs`: `amount` USDT received (> 0) or paid (< 0) by the open
 * position (docs/trading-rules.md §2.2). It is booked: inside booked profit, the day's profit and the funding total.
 */
export function applyFunding<S extends EngineState>(state: S, amount: number, timeMs: number): S {
  const a = state.account;
  const account = {
    ...a,
    bookedProfit: money(a.bookedProfit).plus(amount).toNumber(),
    funding: money(a.funding ?? 0)
      .plus(amount)
      .toNumber(),
  };
  const stats = {
    ...state.stats,
    datewiseProfit: addDailyProfit(state.stats.datewiseProfit, utcDateKey(timeMs), amount),
  };
  return state.kind === 'cycle'
    ? ({ ...state, account, stats } as S)
    : ({ ...state, account, stats, quiet: UNSET_BAND } as S);
}

/** Intent `seq` failed or was rejected with nothing filled: the bot goes on. Idempotent. */
export function applyIntentFailed<S extends EngineState>(state: S, seq: number): S {
  return (
    state.kind === 'cycle' ? applyCycleIntentFailed(state, seq) : applyGridIntentFailed(state, seq)
  ) as S;
}

/**
 * Sell `seq` cannot go out: its quantity is below the exchange's minimum quantity or notional (a spot
 * remainder). Its lots leave the bot as recorded dust instead of being retried for ever
 * (docs/trading-rules.md §3). Idempotent.
 */
export function applyIntentDustDetailed<S extends EngineState>(
  state: S,
  seq: number,
  timeMs: number,
): FillOutcome<S> {
  return (
    state.kind === 'cycle'
      ? applyCycleIntentDust(state, seq, timeMs)
      : applyGridIntentDust(state, seq, timeMs)
  ) as FillOutcome<S>;
}
