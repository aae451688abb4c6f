/**
 * The backtest report (docs/trading-rules.md §2.5 summary): PnL figures from the engine's own account, and the
 * figures a trader judges a strategy by — ROI and APR, max drawdown, Sharpe and Sortino ratios of
 * daily returns, time in market, the buy-and-hold return over the same candles — with the daily
 * equity curve they are computed from.
 */
import type { EngineState } from '../engine';
import { money } from '../money';
import { aprPct, equityAt, roiPct, totalPnl, unrealizedPnl } from '../pnl/pnl';
import type { Notice, StopReason } from '../types';

const MS_PER_DAY = 86_400_000;

export interface BacktestReport {
  investment: number;
  /** First candle's open time and the end of the last candle (Unix ms). */
  startMs: number;
  endMs: number;
  bookedProfit: number;
  /** The holdings at the last price less their cost and less the fee of selling them at market. */
  unrealizedPnl: number;
  totalPnl: number;
  roiPct: number;
  /** ROI × 365 / max(days, 1): simple, not compounded (docs/trading-rules.md §2.1). */
  aprPct: number;
  /** Every fee paid (already inside the PnL figures). */
  fees: number;
  /** Futures funding received (+) or paid (−), inside booked profit. */
  funding: number;
  /** Output rows: buys, lots closed by sells, funding payments. */
  trades: number;
  openGrids: number;
  maxDrawdownPct: number;
  /** Annualised (√365) mean / standard deviation of whole-UTC-day returns; null under two of them. */
  sharpe: number | null;
  /** Annualised mean / downside deviation of daily returns; null without a losing day or two days. */
  sortino: number | null;
  /** Share of the time a position was open. */
  timeInMarketPct: number;
  /** Last close / first open − 1, in percent. */
  buyAndHoldPct: number;
  /** Why the bot stopped; null when it ran to the end of the candles. */
  stopReason: StopReason | null;
  /** Ticks at which a buy was due but skipped (below the minimum notional), and the last one. */
  skippedBuys: number;
  lastSkippedBuy: Notice | null;
}

export interface EquityPoint {
  time: number;
  equity: number;
}

const round = (v: number, dp: number) => money(v).toDecimalPlaces(dp).toNumber();

/** Collects what the report needs while the runner walks the candles. */
export class ReportBuilder {
  readonly curve: EquityPoint[] = [];
  private firstMs = Number.NaN;
  private firstOpen = Number.NaN;
  private prevMs = Number.NaN;
  private interval = 0;
  private day = Number.NaN;
  private inMarketMs = 0;

  /** `feePct`: the fee of a market order, for what selling the holdings at the end would cost. */
  constructor(
    private readonly investment: number,
    private readonly feePct: number,
  ) {}

  /** Called at each candle's open, before its path, with the state and price after the previous one. */
  candle(t: number, open: number, state: EngineState, price: number): void {
    if (Number.isNaN(this.firstMs)) {
      this.firstMs = t;
      this.firstOpen = open;
      this.curve.push({ time: t, equity: equityAt(state.account, open) });
      this.day = Math.floor(t / MS_PER_DAY);
    } else {
      this.interval = t - this.prevMs;
      if (state.lots.length > 0) this.inMarketMs += this.interval;
      const day = Math.floor(t / MS_PER_DAY);
      if (day !== this.day) {
        this.day = day;
        this.curve.push({ time: t, equity: equityAt(state.account, price) });
      }
    }
    this.prevMs = t;
  }

  summary(
    state: EngineState,
    lastPrice: number,
    trades: number,
    skippedBuys: number,
    lastSkippedBuy: Notice | null,
  ): BacktestReport {
    const a = state.account;
    const endMs = this.prevMs + this.interval;
    if (state.lots.length > 0) this.inMarketMs += this.interval;
    const price = Number.isNaN(lastPrice) ? this.firstOpen : lastPrice;
    // What the holdings would bring sold at market now: their value less the taker fee (docs/trading-rules.md §2.1).
    const unrealized = unrealizedPnl(a, price, this.feePct);
    const total = totalPnl(a, price, this.feePct);
    this.curve.push({ time: endMs, equity: money(this.investment).plus(total).toNumber() });
    const roi = roiPct(total, this.investment);
    const span = endMs - this.firstMs;
    const { sharpe, sortino } = dailyRatios(this.curve);
    return {
      investment: this.investment,
      startMs: this.firstMs,
      endMs,
      bookedProfit: a.bookedProfit,
      unrealizedPnl: unrealized,
      totalPnl: total,
      roiPct: round(roi, 6),
      aprPct: round(aprPct(roi, span), 6),
      fees: a.fees,
      funding: a.funding ?? 0,
      trades,
      openGrids: state.lots.length,
      maxDrawdownPct: round(state.stats.maxDrawdownPct, 6),
      sharpe,
      sortino,
      timeInMarketPct: span > 0 ? round((this.inMarketMs / span) * 100, 6) : 0,
      buyAndHoldPct: this.firstOpen > 0 ? round((price / this.firstOpen - 1) * 100, 6) : 0,
      stopReason: state.stopReason,
      skippedBuys,
      lastSkippedBuy,
    };
  }
}

/**
 * Sharpe and Sortino ratios of the daily returns of an equity curve, annualised with √365 (crypto
 * trades every day), risk-free rate 0. A daily return runs from one UTC midnight to the next: the partial
 * first and last days of a run (it starts at 10:30, or ends at noon) are not whole days and are left out.
 */
export function dailyRatios(curve: readonly EquityPoint[]): {
  sharpe: number | null;
  sortino: number | null;
} {
  const returns: number[] = [];
  for (let i = 1; i < curve.length; i++) {
    const from = curve[i - 1] as EquityPoint;
    const to = curve[i] as EquityPoint;
    const wholeDay = from.time % MS_PER_DAY === 0 && to.time - from.time === MS_PER_DAY;
    if (wholeDay && from.equity > 0) returns.push(to.equity / from.equity - 1);
  }
  if (returns.length < 2) return { sharpe: null, sortino: null };
  const mean = returns.reduce((s, r) => s + r, 0) / returns.length;
  const variance = returns.reduce((s, r) => s + (r - mean) ** 2, 0) / (returns.length - 1);
  const downside = Math.sqrt(returns.reduce((s, r) => s + Math.min(r, 0) ** 2, 0) / returns.length);
  const annual = Math.sqrt(365);
  return {
    sharpe: variance > 0 ? round((mean / Math.sqrt(variance)) * annual, 4) : null,
    sortino: downside > 0 ? round((mean / downside) * annual, 4) : null,
  };
}
