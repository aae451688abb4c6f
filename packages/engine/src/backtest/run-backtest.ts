/**
 * Backtest runner (DESIGN §2.5): four ticks per candle through the very `step`/`applyFill` that run
 * live bots; every intent is filled at once at the tick price with the fee of §2.1.
 */
import { applyFillDetailed, type EngineState, step } from '../engine';
import { simulateFill } from '../fills/simulate-fill';
import { money } from '../money';
import { totalPnl, unrealizedPnl } from '../pnl/pnl';
import type { EngineRules } from '../rules';
import { type Candles, candleTicks } from './candles';

/** One output row: a buy, or one lot closed by a sell (pnl = that lot's profit). */
export interface FillRecord {
  time: number;
  side: 'buy' | 'sell';
  grid: number;
  price: number;
  qty: number;
  quote: number;
  fee: number;
  pnl: number;
}

export interface BacktestSummary {
  bookedProfit: number;
  fees: number;
  trades: number;
  openGrids: number;
  unrealizedPnl: number;
  totalPnl: number;
  maxDrawdownPct: number;
}

export interface BacktestResult<S extends EngineState> {
  fills: FillRecord[];
  summary: BacktestSummary;
  state: S;
}

export interface BacktestOptions {
  /** Fee in percent of quote (spot) or notional (futures); default per DESIGN §2.1 from the caller. */
  feePct: number;
  /** Collect fill rows (default true); the benchmark turns it off. */
  record?: boolean;
}

/** Runs `state` over `candles`; deterministic, so two runs print identical output. */
export function runBacktest<S extends EngineState>(
  initial: S,
  candles: Candles,
  rules: EngineRules,
  options: BacktestOptions,
): BacktestResult<S> {
  const fills: FillRecord[] = [];
  const record = options.record !== false;
  const prices = new Float64Array(4);
  let state = initial;
  let rows = 0;
  const n = candles.openTimeMs.length;
  for (let i = 0; i < n; i++) {
    const timeMs = candles.openTimeMs[i] as number;
    candleTicks(candles, i, prices);
    for (let j = 0; j < 4; j++) {
      const price = prices[j] as number;
      const r = step(state, { price, timeMs }, rules);
      state = r.state;
      for (const intent of r.intents) {
        const out = applyFillDetailed(state, simulateFill(intent, price, timeMs, options.feePct));
        state = out.state;
        rows += (out.opened ? 1 : 0) + out.closed.length;
        if (!record) continue;
        if (out.opened) {
          const l = out.opened;
          fills.push({
            time: timeMs,
            side: 'buy',
            grid: l.grid,
            price: l.price,
            qty: l.qty,
            quote: l.quote,
            fee: l.fee,
            pnl: 0,
          });
        }
        for (const c of out.closed) {
          fills.push({
            time: timeMs,
            side: 'sell',
            grid: c.grid,
            price: c.sellPrice,
            qty: c.qty,
            quote: c.sellQuote,
            fee: c.sellFee,
            pnl: c.profit,
          });
        }
      }
    }
  }
  const last = n > 0 ? (candles.close[n - 1] as number) : 0;
  return { fills, summary: summarize(state, last, rows), state };
}

function summarize(state: EngineState, lastPrice: number, rows: number): BacktestSummary {
  const a = state.account;
  return {
    bookedProfit: a.bookedProfit,
    fees: a.fees,
    trades: rows,
    openGrids: state.lots.length,
    unrealizedPnl: unrealizedPnl(a, lastPrice),
    totalPnl: totalPnl(a, lastPrice),
    maxDrawdownPct: money(state.stats.maxDrawdownPct).toDecimalPlaces(6).toNumber(),
  };
}
