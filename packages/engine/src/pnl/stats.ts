/**
 * Statistics the screens show (docs/spec/01-core-screens.md §3, docs/spec/02-bots-wallet-account.md), computed from engine state with the engine's own
 * PnL code so a screen and a trade never disagree.
 */
import type { EngineState } from '../engine';
import { money } from '../money';
import { cycleProgress } from '../strategies/cycle/cycle.state';
import type { Lot, Tick } from '../types';
import { aprPct, roiPct, totalPnlWith, unrealizedPnl } from './pnl';

export interface BotStats {
  status: string;
  runtimeMs: number;
  /** Used grids (open lots, including lots being sold). */
  gridNo: number;
  totalGrid: number;
  /** Newest open lot's price, null when flat. */
  lastBuyingPrice: number | null;
  /** Σ quote / Σ qty of open lots, null when flat. */
  avgBuyPrice: number | null;
  purchasedQty: number;
  investment: number;
  bookedProfit: number;
  unrealizedPnl: number;
  totalPnl: number;
  roiPct: number;
  /** The screens' "APY" (the specification's name): the simple annualised ROI, `aprPct`. */
  apyPct: number;
  fees: number;
  trades: number;
  datewiseProfit: Record<string, number>;
  maxDrawdownPct: number;
  /** Futures liquidation price, null on spot or when flat. */
  liquidationPrice: number | null;
  /** Cycles: completed cycles (+0.5 while holding) / no_of_cycle; grid bots: null. */
  progress: number | null;
}

/** How many lots are open (lots being sold included) and the newest of them (the highest id), without copying them. */
function openLots(state: EngineState): { count: number; newest: Lot | undefined } {
  let count = 0;
  let newest: Lot | undefined;
  const visit = (lots: readonly Lot[]) => {
    count += lots.length;
    for (const lot of lots) if (newest === undefined || lot.id > newest.id) newest = lot;
  };
  visit(state.lots);
  for (const p of state.pending) visit(p.lots);
  return { count, newest };
}

/**
 * Statistics of a bot or cycle at `tick` (the current price and time). With `exitFeePct` (the market's taker
 * fee, percent) the unrealized PnL is net of selling the holdings at market (docs/trading-rules.md §2.1).
 */
export function botStats(state: EngineState, tick: Tick, exitFeePct = 0): BotStats {
  const a = state.account;
  const lots = openLots(state);
  const runtimeMs = Math.max(0, tick.timeMs - state.stats.startTimeMs);
  const unrealized = unrealizedPnl(a, tick.price, exitFeePct);
  const total = totalPnlWith(a, unrealized);
  const roi = roiPct(total, a.investment);
  return {
    status: state.status,
    runtimeMs,
    gridNo: lots.count,
    totalGrid: state.kind === 'cycle' ? 1 : state.params.grids,
    lastBuyingPrice: lots.newest?.price ?? null,
    avgBuyPrice: a.openQty > 0 ? money(a.openQuote).dividedBy(a.openQty).toNumber() : null,
    purchasedQty: a.openQty,
    investment: a.investment,
    bookedProfit: a.bookedProfit,
    unrealizedPnl: unrealized,
    totalPnl: total,
    roiPct: roi,
    apyPct: aprPct(roi, runtimeMs),
    fees: a.fees,
    trades: a.trades,
    datewiseProfit: state.stats.datewiseProfit,
    maxDrawdownPct: state.stats.maxDrawdownPct,
    liquidationPrice: state.market === 'future' && a.liqPrice > 0 ? a.liqPrice : null,
    progress: state.kind === 'cycle' ? cycleProgress(state) : null,
  };
}
