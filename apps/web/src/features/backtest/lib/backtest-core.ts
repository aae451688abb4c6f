/**
 * What the backtest worker computes (docs/product.md, Backtest): the engine's own backtester (`PathBacktest`,
 * the path fill model of docs/trading-rules.md §2.5) started by `startGridBacktest` exactly as the backtest CLI
 * starts it, fed the candles in chunks so the worker can report progress, plus what the results view draws:
 * holding the coin over the same candles, the drawdown and the fills. Pure: runs in a Web Worker and in tests.
 */
import {
  type BacktestReport,
  type EquityPoint,
  type FillRecord,
  type FundingRates,
  type GridBacktestInput,
  PathBacktest,
  startGridBacktest,
} from '@gridbot/engine';
import { type CandleColumns, candlesAt } from '@gridbot/shared';

/** Candles per chunk between progress reports: a few milliseconds of work. */
export const CHUNK_CANDLES = 8_192;
/** Bars on the results' candle chart at most: longer periods are merged into wider bars. */
export const MAX_CHART_BARS = 1_500;

/** A bar of the results' candle chart, with the buys and sells in it. */
export interface ChartBar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  buys: number;
  sells: number;
}

export interface BacktestOutcomeOk {
  ok: true;
  summary: BacktestReport;
  fills: FillRecord[];
  /** Investment + total PnL, daily and at the end. */
  equity: EquityPoint[];
  /** The investment held in the coin from the first open, at the same times. */
  hold: EquityPoint[];
  /** Percent below the highest equity so far, at the same times (≤ 0). */
  drawdown: EquityPoint[];
  /** The candles merged to at most MAX_CHART_BARS bars, with the fills counted per bar. */
  bars: ChartBar[];
}
export type BacktestOutcome = BacktestOutcomeOk | { ok: false; problems: string[] };

/** The close of the last candle opening before `t` (the first open before the first candle). */
function priceBefore(c: CandleColumns, t: number, from: number): { price: number; index: number } {
  let i = from;
  while (i < c.openTimeMs.length && (c.openTimeMs[i] as number) < t) i += 1;
  return { price: i === 0 ? (c.open[0] as number) : (c.close[i - 1] as number), index: i };
}

/**
 * Runs the strategy over the candles; `onProgress(done, total)` after each chunk. A futures run books the
 * funding rates given, as the backtest CLI books those of its `--funding` file.
 */
export function runBacktestJob(
  input: GridBacktestInput,
  candles: CandleColumns,
  onProgress?: (done: number, total: number) => void,
  options: { record?: boolean; funding?: FundingRates | null } = {},
): BacktestOutcome {
  const n = candles.openTimeMs.length;
  if (n === 0) return { ok: false, problems: ['No candles to backtest.'] };
  const start = startGridBacktest(input, candles.openTimeMs[0] as number, candles.open[0] as number);
  if (!start.ok) return { ok: false, problems: start.problems };
  const run = new PathBacktest(start.state, start.rules, {
    feePct: start.feePct,
    record: options.record !== false,
    funding: options.funding ?? null,
  });
  for (let a = 0; a < n; a += CHUNK_CANDLES) {
    const b = Math.min(n, a + CHUNK_CANDLES);
    run.feed(candlesAt(candles, a, b));
    onProgress?.(b, n);
  }
  const result = run.finish();
  const investment = result.summary.investment;
  const firstOpen = candles.open[0] as number;
  const hold: EquityPoint[] = [];
  const drawdown: EquityPoint[] = [];
  let peak = Number.NEGATIVE_INFINITY;
  let cursor = 0;
  for (const p of result.equityCurve) {
    const at = priceBefore(candles, p.time, cursor);
    cursor = at.index;
    hold.push({ time: p.time, equity: (investment * at.price) / firstOpen });
    peak = Math.max(peak, p.equity);
    drawdown.push({ time: p.time, equity: peak > 0 ? (p.equity / peak - 1) * 100 : 0 });
  }
  return {
    ok: true,
    summary: result.summary,
    fills: result.fills,
    equity: result.equityCurve,
    hold,
    drawdown,
    bars: chartBars(candles, result.fills),
  };
}

/** Candles merged into at most MAX_CHART_BARS bars of equal candle counts; fills counted into their bar. */
export function chartBars(c: CandleColumns, fills: readonly FillRecord[]): ChartBar[] {
  const n = c.openTimeMs.length;
  const per = Math.max(1, Math.ceil(n / MAX_CHART_BARS));
  const bars: ChartBar[] = [];
  for (let a = 0; a < n; a += per) {
    const b = Math.min(n, a + per);
    let high = Number.NEGATIVE_INFINITY;
    let low = Number.POSITIVE_INFINITY;
    for (let i = a; i < b; i++) {
      high = Math.max(high, c.high[i] as number);
      low = Math.min(low, c.low[i] as number);
    }
    bars.push({
      time: c.openTimeMs[a] as number,
      open: c.open[a] as number,
      high,
      low,
      close: c.close[b - 1] as number,
      buys: 0,
      sells: 0,
    });
  }
  let k = 0;
  for (const f of fills) {
    if (f.side === 'FUNDING') continue;
    while (k + 1 < bars.length && (bars[k + 1] as ChartBar).time <= f.time) k += 1;
    const bar = bars[k];
    if (!bar) continue;
    if (f.side === 'buy') bar.buys += 1;
    else bar.sells += 1;
  }
  return bars;
}

/** The plain verdict line of the results: liquidation first, then holding beating the strategy. */
export function verdictOf(summary: BacktestReport): string | null {
  if (summary.stopReason === 'liquidated') {
    return 'This bot would have been liquidated in this period: the position lost its margin.';
  }
  if (summary.buyAndHoldPct > summary.roiPct) {
    return `Holding the coin would have beaten this strategy: ${fmtPct(summary.buyAndHoldPct)} against ${fmtPct(summary.roiPct)}.`;
  }
  return null;
}

function fmtPct(v: number): string {
  return `${v >= 0 ? '+' : ''}${v.toFixed(2)} %`;
}
