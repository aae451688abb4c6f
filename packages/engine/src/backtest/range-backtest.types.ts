/** The range grid backtest's rows, summary and options (docs/trading-rules.md §2.6). */
import type { RangeState, RangeStopReason } from '../strategies/range/range.state';
import type { Candles } from './candles';
import type { FundingRates } from './run-backtest';

/**
 * One output row (§2.6): `level` of a limit order, null for a market order; `pnl` a closing order's pair
 * profit. Futures: a funding payment is a row of side `FUNDING` (`pnl` the amount), a liquidation a
 * market row whose `pnl` is the margin lost.
 */
export interface RangeFillRecord {
  time: number;
  side: 'buy' | 'sell' | 'FUNDING';
  level: number | null;
  price: number;
  qty: number;
  quote: number;
  fee: number;
  pnl: number;
}

export interface RangeBacktestSummary {
  investment: number;
  startMs: number;
  endMs: number;
  /** The §2.5 figures: booked profit is the grid profit, unrealized PnL the floating PnL. */
  bookedProfit: number;
  unrealizedPnl: number;
  totalPnl: number;
  roiPct: number;
  aprPct: number;
  fees: number;
  funding: number;
  trades: number;
  /** Orders resting at the end. */
  openGrids: number;
  maxDrawdownPct: number;
  timeInMarketPct: number;
  buyAndHoldPct: number;
  stopReason: RangeStopReason | null;
  gridProfit: number;
  floatingPnl: number;
  matchedTrades: number;
  /** Annualised return of the grid profit alone, percent. */
  gridAprPct: number;
  /**
   * Present when the grid's start was refused at the price it would have started at (§2.6: a trigger crossed
   * in a gap), where a live bot is halted: the reason, and the run has no trades.
   */
  halted?: string;
}

export interface RangeBacktestResult {
  fills: RangeFillRecord[];
  summary: RangeBacktestSummary;
  state: RangeState;
}

export interface RangeBacktestOptions {
  /** Market orders' fee, percent; default by market (§2.1). */
  takerFeePct?: number;
  /** Resting orders' fee, percent; default by market (§2.6). */
  makerFeePct?: number;
  slippageBps?: number;
  /** Collect fill rows (default true); the benchmark turns it off. */
  record?: boolean;
  /** Futures: funding rates booked at each funding time while a position is open (§2.2). */
  funding?: FundingRates | null;
  /**
   * Futures: mark price candles (the same open times). The exchange liquidates on the mark price, so a
   * liquidation happens where the mark's path (o, l, h, c, or o, h, l, c, on lines) reaches the
   * liquidation price; without them the trade path stands in for the mark.
   */
  mark?: Candles | null;
}
