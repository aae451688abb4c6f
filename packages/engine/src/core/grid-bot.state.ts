import { DEFAULT_MAINT_MARGIN_RATE, type MaintBracket } from '@gridbot/shared';
import type { GridParams } from '../strategies/strategy-params';
import type {
  Account,
  BotStatus,
  Lot,
  MarketKind,
  PendingIntent,
  SkippedBuy,
  Stats,
  StopReason,
} from '../types';
import { type QuietBand, UNSET_BAND } from './quiet-band';

/** Parameters a user may change while the bot runs (docs/spec/02-bots-wallet-account.md); null means not set. */
export interface BotSettings {
  /** p ≤ stoploss → sell all, Stopped (reason `stoploss`). */
  stoplossPrice: number | null;
  /** p ≥ pause → sell all, Pause. */
  pausePrice: number | null;
  /** Paused and p ≤ restart → Live. */
  restartPrice: number | null;
  /** Active with value G blocks buying every grid k > G. */
  overbuy: { active: boolean; value: number | null };
  /** Total PnL ≥ this % of investment → sell all, Stopped (reason `profit_book`). */
  profitBookPct: number | null;
  /** False stops opening a new cycle (grid 1 on an empty stack), e.g. when the profit limit is used up. */
  newCyclesAllowed: boolean;
}

/** Trailing buy of the next grid (docs/trading-rules.md §2.2 step 4). `low` is 0 while not armed. */
export interface TrailingBuy {
  armed: boolean;
  low: number;
}

/** A Multigrid or Scalping bot: everything `step()` needs, as plain JSON. */
export interface GridBotState {
  v: 1;
  kind: GridParams['type'];
  params: GridParams;
  market: MarketKind;
  leverage: number;
  /** Futures tier-1 maintenance margin rate (fraction); 0 on spot. */
  maintMarginRate: number;
  /** Futures: the symbol's leverage brackets for the liquidation price (absent: one bracket at `maintMarginRate`). */
  maintBrackets?: readonly MaintBracket[];
  status: BotStatus;
  stopReason: StopReason | null;
  settings: BotSettings;
  /** Open lots in buy order (oldest first); the newest is last. */
  lots: Lot[];
  trail: TrailingBuy;
  /** Last intent sequence number issued. */
  seq: number;
  /** Intents sent and not yet filled or failed; `step()` issues nothing while any is pending. */
  pending: PendingIntent[];
  /** Set by `stopAndSell`; the sell happens on the next `step()`. */
  exitRequest: 'stop_and_sell' | null;
  account: Account;
  stats: Stats;
  /**
   * Cache: prices strictly inside (lo, hi) change nothing (see quiet-band.ts). Derived from the rest
   * of the state by `step()`; anything else that changes the state resets it to `UNSET_BAND`.
   */
  quiet: QuietBand;
  /** The last buy skipped since the last buy filled (absent or null: none). */
  skippedBuy?: SkippedBuy | null;
}

export const DEFAULT_SETTINGS: BotSettings = {
  stoplossPrice: null,
  pausePrice: null,
  restartPrice: null,
  overbuy: { active: false, value: null },
  profitBookPct: null,
  newCyclesAllowed: true,
};

export const NO_TRAIL: TrailingBuy = { armed: false, low: 0 };

/** A fresh account of `investment` USDT. */
export function newAccount(investment: number): Account {
  return {
    investment,
    bookedProfit: 0,
    fees: 0,
    trades: 0,
    openQty: 0,
    openQuote: 0,
    openMargin: 0,
    openCost: 0,
    liqPrice: 0,
    dustQty: 0,
    posQty: 0,
    posNotional: 0,
    posMargin: 0,
  };
}

export function newStats(startTimeMs: number, investment: number): Stats {
  return { startTimeMs, peakEquity: investment, maxDrawdownPct: 0, datewiseProfit: {}, lastBuyTimeMs: null };
}

export interface CreateGridBotInput {
  params: GridParams;
  /** Total USDT (futures: total margin) the bot may use. */
  investment: number;
  market: MarketKind;
  /** Futures leverage (1–125); ignored on spot. */
  leverage?: number;
  startTimeMs: number;
  /** Futures: the symbol's maintenance margin rate (`EngineRules.maintMarginRate`); default 0.5 %. */
  maintMarginRate?: number;
  /** Futures: the symbol's leverage brackets (`findMaintBrackets(symbol)`); default one bracket at the rate. */
  maintBrackets?: readonly MaintBracket[];
  settings?: Partial<BotSettings>;
}

/** A new Live bot with an empty stack. Validate it first with `validateGridStart`. */
export function createGridBot(input: CreateGridBotInput): GridBotState {
  const leverage = input.market === 'future' ? (input.leverage ?? 1) : 1;
  return {
    v: 1,
    kind: input.params.type,
    params: input.params,
    market: input.market,
    leverage,
    maintMarginRate: input.market === 'future' ? (input.maintMarginRate ?? DEFAULT_MAINT_MARGIN_RATE) : 0,
    ...(input.market === 'future' && input.maintBrackets ? { maintBrackets: input.maintBrackets } : {}),
    status: 'Live',
    stopReason: null,
    settings: { ...DEFAULT_SETTINGS, ...input.settings },
    lots: [],
    trail: NO_TRAIL,
    seq: 0,
    pending: [],
    exitRequest: null,
    account: newAccount(input.investment),
    stats: newStats(input.startTimeMs, input.investment),
    quiet: UNSET_BAND,
  };
}
