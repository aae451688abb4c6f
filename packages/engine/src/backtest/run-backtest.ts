/**
 * Backtest runner with the path fill model of docs/trading-rules.md §2.5. Each candle becomes the path o, l, h, c
 * (o, h, l, c when it closes below its open) at its open time, and consecutive path points — a close
 * and the next open included — are joined by straight lines. On each line the bot acts at the first
 * price where one of its rules becomes true (the edge of the event band, core/quiet-band.ts) — the
 * first price on the symbol's tick grid, since that is where trades happen and what a live or paper
 * bot is fed — then goes on from there; the line's end point is fed last. Every intent fills at once at the
 * level that set it off (or the path point it was decided at), moved by the optional slippage and rounded to
 * the tick against the bot — never at the tick beyond the level, which is one tick in the bot's favour —
 * with the fee of §2.1, through the very `step`/`applyFill` that run live bots.
 *
 * The runner is a stream: `feed` takes candles in time order in any number of chunks (one per file)
 * and gives the same fills as one call with all of them.
 */
import { fillPriceAgainst, money } from '@gridbot/shared';
import { applyFillDetailed, applyFunding, type EngineState, step } from '../engine';
import { buyFeeUsdt } from '../fills/ledger';
import { simulateFill } from '../fills/simulate-fill';
import { FUNDING_JITTER_MS, fundingPayment } from '../funding';
import type { EngineRules } from '../rules';
import type { Intent, Notice, Tick } from '../types';
import type { Candles } from './candles';
import { firstTickBeyond, nextEventLevel, type TickGrid, tickGridOf } from './path-line';
import { type BacktestReport, type EquityPoint, ReportBuilder } from './report';

/** One output row: a buy, one lot closed by a sell (pnl = that lot's profit), or a funding payment. */
export interface FillRecord {
  time: number;
  side: 'buy' | 'sell' | 'FUNDING';
  grid: number;
  price: number;
  qty: number;
  quote: number;
  fee: number;
  pnl: number;
}

export type BacktestSummary = BacktestReport;

export interface BacktestResult<S extends EngineState> {
  fills: FillRecord[];
  summary: BacktestSummary;
  /** Daily equity (investment + total PnL) at each UTC day's first candle, then at the end. */
  equityCurve: EquityPoint[];
  state: S;
}

/** Funding-rate history: times (Unix ms) and rates (fraction per 8 h), ascending. */
export interface FundingRates {
  timeMs: Float64Array;
  rate: Float64Array;
}

export interface BacktestOptions {
  /** Fee in percent of quote (spot) or notional (futures); default per docs/trading-rules.md §2.1 from the caller. */
  feePct: number;
  /**
   * Spot buys: 'base' (default, docs/trading-rules.md §2.1) takes the commission from the coin bought, as Binance and
   * the paper exchange do, so the lots hold qty − commission and the bot carries the dust; 'quote' books it in
   * USDT on top of the quote instead (a comparison only: no exchange charges it so).
   */
  spotBuyFeeAsset?: 'quote' | 'base';
  /** Moves every fill price against the bot by this many basis points before tick rounding. */
  slippageBps?: number;
  /** Futures: funding rates booked at each funding time while a position is open. */
  funding?: FundingRates | null;
  /**
   * Futures: mark-price candles (the same open times as the candles; a candle without its mark candle uses
   * the last price). Funding is charged on the mark price and the position liquidated when the mark reaches
   * its liquidation price, as Binance does (docs/trading-rules.md §2.2); the mark follows the same path model.
   */
  mark?: Candles | null;
  /** Collect fill rows (default true); the benchmark turns it off. */
  record?: boolean;
  /**
   * Called with every price the engine is fed (a path point or an event level), in order; a price is
   * fed again after fills at it (e.g. grid 1 buying at once after a sell-all), and reported again.
   */
  onTick?: (price: number, timeMs: number) => void;
}

/** Events handled on one line before its end is fed regardless (a guard, never reached in practice). */
const MAX_EVENTS_PER_LINE = 10_000;
/** Rounds of step/fill at one price (a market buy after a sell-all, several grids at one level). */
const MAX_ROUNDS_AT_PRICE = 64;

/** Runs a backtest from an initial state: feed candles, then `finish`. */
export class PathBacktest<S extends EngineState> {
  state: S;
  readonly fills: FillRecord[] = [];
  private price = Number.NaN;
  private rows = 0;
  private readonly record: boolean;
  private readonly tickSize: string;
  private readonly grid: TickGrid;
  private readonly slippageBps: number;
  private readonly report: ReportBuilder;
  private fundingIndex = 0;
  /** The mark price at the current path point (NaN: none, the last price stands in), and the mark candle index. */
  private markPrice = Number.NaN;
  private markIndex = 0;
  private skipped: Notice | null = null;
  private skippedCount = 0;

  constructor(
    initial: S,
    private readonly rules: EngineRules,
    private readonly options: BacktestOptions,
  ) {
    this.state = initial;
    this.record = options.record !== false;
    this.tickSize = rules.tickSize;
    this.grid = tickGridOf(rules.tickSize);
    this.slippageBps = options.slippageBps ?? 0;
    this.report = new ReportBuilder(initial.account.investment, options.feePct);
  }

  /** Feeds candles that follow every candle fed before. */
  feed(c: Candles): void {
    const n = c.openTimeMs.length;
    const times = c.openTimeMs;
    const opens = c.open;
    const highs = c.high;
    const lows = c.low;
    const closes = c.close;
    const funding = this.options.funding;
    const mark = this.options.mark;
    for (let i = 0; i < n; i++) {
      const t = times[i] as number;
      const o = opens[i] as number;
      const cl = closes[i] as number;
      // The mark candle of this open time, if any: its points pair with the candle's (open with open, …).
      const m = mark ? this.markCandle(mark, t) : -1;
      const mo = m < 0 ? Number.NaN : (mark?.open[m] as number);
      this.report.candle(t, o, this.state, this.price);
      if (funding) this.fund(funding, t, Number.isNaN(mo) ? o : mo);
      this.walk(o, t, mo);
      const ml = m < 0 ? Number.NaN : (mark?.low[m] as number);
      const mh = m < 0 ? Number.NaN : (mark?.high[m] as number);
      if (cl >= o) {
        this.walk(lows[i] as number, t, ml);
        this.walk(highs[i] as number, t, mh);
      } else {
        this.walk(highs[i] as number, t, mh);
        this.walk(lows[i] as number, t, ml);
      }
      this.walk(cl, t, m < 0 ? Number.NaN : (mark?.close[m] as number));
    }
  }

  /** The index of the mark candle opening at `t`, or −1 (mark candles are read forward, in time order). */
  private markCandle(mark: Candles, t: number): number {
    const times = mark.openTimeMs;
    while (this.markIndex < times.length && (times[this.markIndex] as number) < t) this.markIndex += 1;
    return times[this.markIndex] === t ? this.markIndex : -1;
  }

  /** The result after the last candle fed. */
  finish(): BacktestResult<S> {
    const s = this.state;
    const summary = this.report.summary(s, this.price, this.rows, this.skippedCount, this.skipped);
    return { fills: this.fills, summary, equityCurve: this.report.curve, state: s };
  }

  /**
   * Moves the price along the line from the current price to `b` (the mark from its current value to `mb`,
   * NaN: none), acting at every event on it.
   */
  private walk(b: number, t: number, mb: number): void {
    const a = this.price;
    const ma = this.markPrice;
    this.markPrice = mb;
    let cur = a;
    const s = this.state;
    if (s.kind !== 'cycle') {
      // Both ends inside the quiet band: the whole line is (the band is an interval; the mark's line too).
      const q = s.quiet;
      if (cur > q.lo && cur < q.hi && b > q.lo && b < q.hi && !(mb <= q.lo) && !(ma <= q.lo)) {
        this.price = b;
        return;
      }
    }
    if (!Number.isNaN(cur) && b !== cur) {
      for (let k = 0; k < MAX_EVENTS_PER_LINE; k++) {
        const e = nextEventLevel(this.state, cur, b);
        if (Number.isNaN(e)) break;
        const x = firstTickBeyond(e, cur, b, this.grid);
        // The engine is fed the first tick where its exact comparison holds; the orders fill at the level.
        // The mark moves along its own line in step with the price.
        this.settle(x, t, e, ma + ((mb - ma) * (x - a)) / (b - a));
        cur = x;
      }
    }
    this.settle(b, t, b, mb);
  }

  /**
   * Feeds `p` (with the `mark` price, NaN: none) and fills what it decides at `level` (the event level `p` is
   * the first tick beyond, or `p` itself), again until nothing more happens at this price.
   */
  private settle(p: number, t: number, level: number, mark: number): void {
    const onTick = this.options.onTick;
    // One shape for every tick (the engine's hot path stays monomorphic).
    const tick: Tick = { price: p, timeMs: t, markPrice: Number.isNaN(mark) ? undefined : mark };
    for (let round = 0; round < MAX_ROUNDS_AT_PRICE; round++) {
      onTick?.(p, t);
      const r = step(this.state, tick, this.rules);
      this.state = r.state;
      if (r.notices !== undefined && r.notices.length > 0) {
        this.skippedCount += 1;
        this.skipped = r.notices[r.notices.length - 1] as Notice;
      }
      if (r.intents.length === 0) break;
      for (const intent of r.intents) this.fill(intent, t, level);
    }
    this.price = p;
  }

  private fill(intent: Intent, t: number, level: number): void {
    const price =
      intent.type === 'RecordLiquidation'
        ? intent.price
        : fillPriceAgainst(
            level,
            intent.type === 'MarketBuy' ? 'buy' : 'sell',
            this.tickSize,
            this.slippageBps,
          ).toNumber();
    const feeAsset = this.state.market === 'spot' ? (this.options.spotBuyFeeAsset ?? 'base') : undefined;
    const fill = simulateFill(intent, price, t, this.options.feePct, feeAsset);
    const out = applyFillDetailed(this.state, fill);
    this.state = out.state;
    this.rows += (out.opened ? 1 : 0) + out.closed.length;
    if (!this.record) return;
    if (out.opened) {
      const l = out.opened;
      this.fills.push({
        time: t,
        side: 'buy',
        grid: l.grid,
        price: l.price,
        // What the order filled (the lot holds that less a fee taken in the coin), and its fee in USDT.
        qty: Number(fill.qty),
        quote: l.quote,
        fee: buyFeeUsdt(fill),
        pnl: 0,
      });
    }
    for (const c of out.closed) {
      this.fills.push({
        time: t,
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

  /**
   * Funding at every funding time up to this candle's open (docs/trading-rules.md §2.2): the open position pays
   * (rate > 0) or receives its size × the mark price at the candle's open (the open where there is no mark)
   * × the rate.
   */
  private fund(f: FundingRates, t: number, open: number): void {
    const n = f.timeMs.length;
    // A funding time published a few ms after the hour belongs to the candle that opens on the hour.
    while (this.fundingIndex < n && (f.timeMs[this.fundingIndex] as number) <= t + FUNDING_JITTER_MS) {
      const at = f.timeMs[this.fundingIndex] as number;
      const rate = f.rate[this.fundingIndex] as number;
      this.fundingIndex += 1;
      const s = this.state;
      const qty = s.account.posQty ?? s.account.openQty;
      if (s.market !== 'future' || !(qty > 0) || Number.isNaN(this.price)) continue;
      const notional = money(qty).times(open);
      const amount = fundingPayment(qty, open, rate);
      this.state = applyFunding(s, amount, at);
      this.rows += 1;
      if (this.record) {
        this.fills.push({
          time: at,
          side: 'FUNDING',
          grid: 0,
          price: open,
          qty,
          quote: notional.toNumber(),
          fee: 0,
          pnl: amount,
        });
      }
    }
  }
}

/** Runs `initial` over `candles`; deterministic, so two runs print identical output. */
export function runBacktest<S extends EngineState>(
  initial: S,
  candles: Candles,
  rules: EngineRules,
  options: BacktestOptions,
): BacktestResult<S> {
  const run = new PathBacktest(initial, rules, options);
  run.feed(candles);
  return run.finish();
}
