import { DEFAULT_MAINT_MARGIN_RATE, type MaintBracket } from '@gridbot/shared';
import { newAccount, newStats } from '../../core/grid-bot.state';
import type { CycleStatus } from '../../core/transitions';
import type { Account, Lot, MarketKind, PendingIntent, SkippedBuy, Stats, StopReason } from '../../types';

/** Cycle parameters (docs/trading-rules.md §2.4; editable while running). */
export interface CycleParams {
  /** Buy at market when p ≤ buyPrice (priceReachAt). */
  buyPrice: number;
  /** Sell when p ≥ sellPrice. */
  sellPrice: number;
  /** Holding and p ≤ stopLoss → sell, Stopped. Null: no stop loss. */
  stopLoss: number | null;
  /** no_of_cycle. */
  cycles: number;
  /** USDT per buy (futures: margin). */
  amount: number;
}

/** A cycle bot as plain JSON. */
export interface CycleState {
  v: 1;
  kind: 'cycle';
  params: CycleParams;
  market: MarketKind;
  leverage: number;
  maintMarginRate: number;
  /** Futures: the symbol's leverage brackets (see GridBotState). */
  maintBrackets?: readonly MaintBracket[];
  status: CycleStatus;
  stopReason: StopReason | null;
  cyclesCompleted: number;
  /** The held lot (0 or 1). */
  lots: Lot[];
  seq: number;
  pending: PendingIntent[];
  exitRequest: 'stop_and_sell' | null;
  account: Account;
  stats: Stats;
  /** The last buy skipped since the last buy filled (absent or null: none). */
  skippedBuy?: SkippedBuy | null;
}

export interface CreateCycleInput {
  params: CycleParams;
  market: MarketKind;
  leverage?: number;
  maintMarginRate?: number;
  maintBrackets?: readonly MaintBracket[];
  startTimeMs: number;
}

/** A new cycle waiting to buy. Validate it first with `validateCycleStart`. */
export function createCycle(input: CreateCycleInput): CycleState {
  const future = input.market === 'future';
  return {
    v: 1,
    kind: 'cycle',
    params: input.params,
    market: input.market,
    leverage: future ? (input.leverage ?? 1) : 1,
    maintMarginRate: future ? (input.maintMarginRate ?? DEFAULT_MAINT_MARGIN_RATE) : 0,
    ...(future && input.maintBrackets ? { maintBrackets: input.maintBrackets } : {}),
    status: 'WaitBuy',
    stopReason: null,
    cyclesCompleted: 0,
    lots: [],
    seq: 0,
    pending: [],
    exitRequest: null,
    account: newAccount(input.params.amount),
    stats: newStats(input.startTimeMs, input.params.amount),
  };
}

/** Progress shown: (cycles completed, + 0.5 while a position is held) / no_of_cycle. */
export function cycleProgress(state: CycleState): number {
  const held = state.lots.length > 0 || state.status === 'Selling' ? 0.5 : 0;
  return state.params.cycles > 0 ? (state.cyclesCompleted + held) / state.params.cycles : 0;
}
