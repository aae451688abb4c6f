/**
 * Backtest of a range grid (docs/trading-rules.md §2.6) on the path of §2.5: each candle is the path
 * o, l, h, c (o, h, l, c when it closes below its open), points joined by straight lines. Along a line,
 * resting limit orders fill at their own price with the maker fee in path order; stops, trailing and
 * the trigger fire at their level and their market orders fill at that price rounded to the tick
 * against the bot with the taker fee. The same `stepRange` / `applyRangeFill` a live bot runs.
 *
 * A stream: `feed` takes candles in time order in any number of chunks and gives the same fills as
 * one call with all of them.
 */
import { DEFAULT_FEE_PCT, fillPriceAgainst } from '@gridbot/shared';
import { simulateFill } from '../fills/simulate-fill';
import { FUNDING_JITTER_MS } from '../funding';
import { money } from '../money';
import { aprPct, roiPct } from '../pnl/pnl';
import type { EngineRules } from '../rules';
import { exactMul } from '../strategies/range/exact';
import { applyRangeFill, rangePnl } from '../strategies/range/range.fill';
import { applyRangeFunding, positionValue } from '../strategies/range/range.futures';
import { type RangeState, withBand } from '../strategies/range/range.state';
import { startRefusedText, stepRange } from '../strategies/range/range.step';
import { RANGE_MAKER_FEE_PCT } from '../strategies/range/range-levels';
import type { RangeIntent } from '../types';
import type { Candles } from './candles';
import type {
  RangeBacktestOptions,
  RangeBacktestResult,
  RangeBacktestSummary,
  RangeFillRecord,
} from './range-backtest.types';
import { firstRestingFill, restingFill } from './range-fills';
import type { FundingRates } from './run-backtest';

export type {
  RangeBacktestOptions,
  RangeBacktestResult,
  RangeBacktestSummary,
  RangeFillRecord,
} from './range-backtest.types';

/** Events on one line before its end is fed regardless (a guard, never reached in practice). */
const MAX_EVENTS_PER_LINE = 100_000;
/** Rounds of step/fill at one price (a start, several trailing steps). */
const MAX_ROUNDS_AT_PRICE = 1_000;
const NO_MARK: readonly (number | undefined)[] = [undefined, undefined, undefined, undefined];
const round = (v: number, dp: number) => money(v).toDecimalPlaces(dp).toNumber();

export class RangeBacktest {
  state: RangeState;
  readonly fills: RangeFillRecord[] = [];
  private price = Number.NaN;
  private readonly record: boolean;
  private readonly taker: number;
  private readonly maker: number;
  private readonly spot: boolean;
  private firstMs = Number.NaN;
  private firstOpen = Number.NaN;
  private lastMs = Number.NaN;
  private interval = 0;
  private inMarketMs = 0;
  private peak = 0;
  private maxDrawdownPct = 0;
  private fundingIndex = 0;
  private markIndex = 0;
  /** The mark price at the current path price (undefined without mark candles for it). */
  private mark: number | undefined = undefined;
  /**
   * Why the run ended before the grid started: its start was refused at the price it would have started at
   * (§2.6), where the runtime halts the bot. Nothing happens after.
   */
  private halted: string | undefined = undefined;

  constructor(
    initial: RangeState,
    private readonly rules: EngineRules,
    private readonly options: RangeBacktestOptions = {},
  ) {
    this.state = initial;
    if (options.mark && initial.futures !== undefined && !initial.futures.markFeed) {
      // The liquidation is then an event of the mark's path, not of the trade price's band.
      this.state = withBand({ ...initial, futures: { ...initial.futures, markFeed: true } });
    }
    this.record = options.record !== false;
    this.taker = options.takerFeePct ?? DEFAULT_FEE_PCT[initial.market];
    this.maker = options.makerFeePct ?? RANGE_MAKER_FEE_PCT[initial.market];
    this.spot = initial.market === 'spot';
    this.peak = initial.investment;
  }

  feed(c: Candles): void {
    const n = c.openTimeMs.length;
    for (let i = 0; i < n; i++) {
      const t = c.openTimeMs[i] as number;
      const o = c.open[i] as number;
      const cl = c.close[i] as number;
      this.candle(t, o);
      if (this.options.funding) this.fund(this.options.funding, t, o);
      const m = this.options.mark ? this.markPath(this.options.mark, t) : NO_MARK;
      this.walk(o, t, m[0]);
      if (cl >= o) {
        this.walk(c.low[i] as number, t, m[1]);
        this.walk(c.high[i] as number, t, m[2]);
      } else {
        this.walk(c.high[i] as number, t, m[1]);
        this.walk(c.low[i] as number, t, m[2]);
      }
      this.walk(cl, t, m[3]);
    }
  }

  finish(): RangeBacktestResult {
    const s = this.state;
    const endMs = this.lastMs + this.interval;
    if (this.inMarket()) this.inMarketMs += this.interval;
    const price = Number.isNaN(this.price) ? this.firstOpen : this.price;
    const pnl = rangePnl(s, price, this.taker);
    this.drawdown(pnl.totalPnl);
    const span = endMs - this.firstMs;
    const roi = roiPct(pnl.totalPnl, s.investment);
    const summary: RangeBacktestSummary = {
      investment: s.investment,
      startMs: this.firstMs,
      endMs,
      bookedProfit: pnl.gridProfit,
      unrealizedPnl: pnl.floatingPnl,
      totalPnl: pnl.totalPnl,
      roiPct: round(roi, 6),
      aprPct: round(aprPct(roi, span), 6),
      fees: s.stats.fees,
      funding: s.futures?.funding ?? 0,
      trades: s.stats.trades,
      openGrids: s.orders.length,
      maxDrawdownPct: round(this.maxDrawdownPct, 6),
      timeInMarketPct: span > 0 ? round((this.inMarketMs / span) * 100, 6) : 0,
      buyAndHoldPct: this.firstOpen > 0 ? round((price / this.firstOpen - 1) * 100, 6) : 0,
      stopReason: s.stopReason,
      gridProfit: pnl.gridProfit,
      floatingPnl: pnl.floatingPnl,
      matchedTrades: s.stats.matchedTrades,
      gridAprPct: round(aprPct(roiPct(pnl.gridProfit, s.investment), span), 6),
      ...(this.halted === undefined ? {} : { halted: this.halted }),
    };
    return { fills: this.fills, summary, state: s };
  }

  /** At each candle's open: time in market and drawdown from the equity at the open. */
  private candle(t: number, open: number): void {
    if (Number.isNaN(this.firstMs)) {
      this.firstMs = t;
      this.firstOpen = open;
    } else {
      this.interval = t - this.lastMs;
      if (this.inMarket()) this.inMarketMs += this.interval;
      const s = this.state;
      this.drawdown(
        s.futures === undefined
          ? s.quote + s.base * open - s.investment
          : rangePnl(s, open, this.taker).totalPnl,
      );
    }
    this.lastMs = t;
  }

  private inMarket(): boolean {
    const s = this.state;
    const value = s.futures === undefined ? s.base * this.price : positionValue(s, this.price);
    return value >= this.rules.minNotionalNum;
  }

  /**
   * Funding at every funding time up to this candle's open, on the candle's open as the mark price
   * (as the Multigrid backtest books it, run-backtest.ts).
   */
  private fund(f: FundingRates, t: number, open: number): void {
    const n = f.timeMs.length;
    // A funding time published a few ms after the hour belongs to the candle that opens on the hour.
    while (this.fundingIndex < n && (f.timeMs[this.fundingIndex] as number) <= t + FUNDING_JITTER_MS) {
      const at = f.timeMs[this.fundingIndex] as number;
      const rate = f.rate[this.fundingIndex] as number;
      this.fundingIndex += 1;
      if (Number.isNaN(this.price)) continue;
      const pos = this.state.futures?.pos ?? 0;
      const out = applyRangeFunding(this.state, open, rate);
      if (out.amount === 0 && pos === 0) continue;
      this.state = out.state;
      if (this.record) {
        const qty = Math.abs(pos);
        const quote = exactMul(qty, open);
        this.fills.push({
          time: at,
          side: 'FUNDING',
          level: null,
          price: open,
          qty,
          quote,
          fee: 0,
          pnl: out.amount,
        });
      }
    }
  }

  private drawdown(total: number): void {
    const equity = this.state.investment + total;
    if (equity > this.peak) this.peak = equity;
    else if (this.peak > 0)
      this.maxDrawdownPct = Math.max(this.maxDrawdownPct, (1 - equity / this.peak) * 100);
  }

  /** Moves the price from the current price to `b`, filling and firing at every level on the way. */
  private walk(b: number, t: number, mb?: number): void {
    let cur = this.price;
    const a = cur;
    const ma = this.mark ?? mb;
    // Both ends inside the band: so is the whole line (the band is an interval), nothing happens.
    const q = this.state.band;
    if (
      this.halted !== undefined ||
      (cur > q.lo && cur < q.hi && b > q.lo && b < q.hi && !this.markLiquidates(mb))
    ) {
      this.price = b;
      this.mark = mb;
      return;
    }
    if (!Number.isNaN(cur) && b !== cur) {
      const up = b > cur;
      for (let k = 0; k < MAX_EVENTS_PER_LINE; k++) {
        const s = this.state;
        const band = s.band;
        if (cur > band.lo && cur < band.hi && b > band.lo && b < band.hi) break;
        const e = up ? band.hi : band.lo;
        if (up ? !(e >= cur && e <= b) : !(e <= cur && e >= b)) break;
        const order = s.pending === null ? firstRestingFill(s.orders, cur, b) : null;
        if (order !== null && order.price === e) this.fillResting(order, t);
        // The mark moves along its own line in step with the trade price's.
        this.settle(e, t, ma === undefined || mb === undefined ? mb : ma + ((mb - ma) * (e - a)) / (b - a));
        cur = e;
        // A level that changed nothing (it cannot: a guard against looping on it).
        if (this.state === s) break;
      }
    }
    this.settle(b, t, mb);
  }

  /** The mark candle opening at `t` as four path points (undefined: no mark candle, the price stands in). */
  private markPath(mark: Candles, t: number): readonly (number | undefined)[] {
    const times = mark.openTimeMs;
    while (this.markIndex < times.length && (times[this.markIndex] as number) < t) this.markIndex += 1;
    const i = this.markIndex;
    if (times[i] !== t) return NO_MARK;
    const o = mark.open[i] as number;
    const cl = mark.close[i] as number;
    const h = mark.high[i] as number;
    const l = mark.low[i] as number;
    return cl >= o ? [o, l, h, cl] : [o, h, l, cl];
  }

  /** Whether the mark price `m` is at or beyond the position's liquidation price. */
  private markLiquidates(m: number | undefined): boolean {
    const f = this.state.futures;
    if (m === undefined || f === undefined || !(f.liqPrice > 0)) return false;
    return f.pos > 0 ? m <= f.liqPrice : f.pos < 0 && m >= f.liqPrice;
  }

  private fillResting(order: RangeState['orders'][number], t: number): void {
    const fill = restingFill(order, t, this.maker, this.spot);
    const out = applyRangeFill(this.state, fill);
    this.state = out.state;
    if (this.record) this.row(t, order.price, order.qty, Number(fill.quote), out);
  }

  /** Feeds `p` and fills the market orders it decides, until nothing more happens at this price. */
  private settle(p: number, t: number, mark?: number): void {
    this.mark = mark;
    const tick = mark === undefined ? { price: p, timeMs: t } : { price: p, timeMs: t, markPrice: mark };
    for (let r = 0; r < MAX_ROUNDS_AT_PRICE; r++) {
      const before = this.state;
      const res = stepRange(before, tick, this.rules);
      if (res.refused !== undefined) {
        this.halted = startRefusedText(p, res.refused);
        break;
      }
      this.state = res.state;
      if (res.state.stopReason === 'liquidated' && before.status !== 'Stopped') this.liquidated(before, p, t);
      if (res.intents.length === 0) break;
      for (const intent of res.intents) this.fillMarket(intent, t);
    }
    this.price = p;
  }

  /** The liquidation's row: the position closed at the liquidation price, its margin lost. */
  private liquidated(before: RangeState, p: number, t: number): void {
    const f = before.futures;
    if (!this.record || f === undefined) return;
    const qty = Math.abs(f.pos);
    const side = f.pos > 0 ? 'sell' : 'buy';
    this.fills.push({
      time: t,
      side,
      level: null,
      price: f.liqPrice || p,
      qty,
      quote: exactMul(qty, f.liqPrice || p),
      fee: 0,
      pnl: -f.margin,
    });
  }

  private fillMarket(intent: RangeIntent, t: number): void {
    if (intent.type === 'RangeMarketOrder') {
      this.fillFuturesMarket(intent, t);
      return;
    }
    if (intent.type !== 'MarketBuy' && intent.type !== 'SellLots') return;
    const side = intent.type === 'MarketBuy' ? 'buy' : 'sell';
    const price = fillPriceAgainst(
      intent.price,
      side,
      this.rules.tickSize,
      this.options.slippageBps ?? 0,
    ).toNumber();
    const fill = simulateFill(intent, price, t, this.taker, this.spot ? 'base' : 'quote');
    const out = applyRangeFill(this.state, fill);
    this.state = out.state;
    if (this.record) this.row(t, price, Number(fill.qty), Number(fill.quote), out);
  }

  /** A futures market order: at its price rounded against the bot, the taker fee on its notional, in USDT. */
  private fillFuturesMarket(intent: Extract<RangeIntent, { type: 'RangeMarketOrder' }>, t: number): void {
    const price = fillPriceAgainst(
      intent.price,
      intent.side,
      this.rules.tickSize,
      this.options.slippageBps ?? 0,
    ).toNumber();
    const qty = Number(intent.qty);
    const quote = exactMul(qty, price);
    const fee = exactMul(quote, exactMul(this.taker, 0.01));
    const fill = { seq: intent.seq, side: intent.side, price, qty, quote, fee, timeMs: t };
    const out = applyRangeFill(this.state, fill);
    this.state = out.state;
    if (this.record) this.row(t, price, qty, quote, out);
  }

  private row(
    t: number,
    price: number,
    qty: number,
    quote: number,
    out: { side: 'buy' | 'sell'; level: number | null; feeUsdt: number; pnl: number },
  ): void {
    this.fills.push({
      time: t,
      side: out.side,
      level: out.level,
      price,
      qty,
      quote,
      fee: out.feeUsdt,
      pnl: out.pnl,
    });
  }
}

export {
  type RangeBacktestInput,
  type RangeBacktestStart,
  startRangeBacktest,
} from './range-start';

/** Runs `initial` over `candles`; deterministic. */
export function runRangeBacktest(
  initial: RangeState,
  candles: Candles,
  rules: EngineRules,
  options: RangeBacktestOptions = {},
): RangeBacktestResult {
  const run = new RangeBacktest(initial, rules, options);
  run.feed(candles);
  return run.finish();
}
