/**
 * The quiet band: the open price interval (lo, hi) inside which a grid bot's tick changes nothing —
 * no risk exit, no restart, no take-profit arming or selling, no trailing move, no buy, no new peak or
 * drawdown. Every rule of docs/trading-rules.md §2.2–2.3 is a price threshold for a given state, so the band is the
 * intersection of "this rule does not fire" intervals, computed once whenever the state changes. The
 * thresholds are not written here: each rule states its own level beside its decision (grid-rules.ts, and
 * the strategies' `GridHooks`), and both bands collect them.
 *
 * It is shrunk by a relative margin well above the float error of the thresholds, so inside it the
 * full evaluation is certain to return the state unchanged; near any threshold the full path decides.
 * This is what makes a quiet tick cost two comparisons (the hot path of the engine benchmark).
 */
import type { GridBotState } from './grid-bot.state';
import { drawdownLevels, nextGrid, type RuleLevels, restartLevel, riskLevels } from './grid-rules';
import type { GridHooks } from './grid-tick';

export interface QuietBand {
  lo: number;
  hi: number;
}

/**
 * Whether `tick` is quiet: its price strictly inside the band, and its mark price (when it has one) above the
 * band's low edge, which is at or above the liquidation price (a mark at or below it may liquidate).
 */
export function inQuietBand(band: QuietBand, tick: { price: number; markPrice?: number }): boolean {
  const p = tick.price;
  if (!(p > band.lo && p < band.hi)) return false;
  const mark = tick.markPrice;
  return mark === undefined || mark > band.lo;
}

/** No band: every tick takes the full path (and stores a fresh band). `lo > hi`, JSON-safe. */
export const UNSET_BAND: QuietBand = { lo: 1, hi: 0 };
/** A band that holds no price (a rule fires at any price, e.g. an empty stack buys at market). */
const EMPTY_BAND: QuietBand = { lo: 0, hi: 0 };

const MARGIN = 4e-9;

/** Collects rule levels into a band; path-following levels only for the quiet band. */
class BandBuilder implements RuleLevels {
  any = false;
  constructor(
    public lo: number,
    public hi: number,
    private readonly withPath: boolean,
  ) {}
  fallTo(level: number): void {
    this.lo = Math.max(this.lo, level);
  }
  riseTo(level: number): void {
    this.hi = Math.min(this.hi, level);
  }
  always(): void {
    this.any = true;
  }
  followsBelow(level: number): void {
    if (this.withPath) this.fallTo(level);
  }
  followsAbove(level: number): void {
    if (this.withPath) this.riseTo(level);
  }
  followsAlways(): void {
    if (this.withPath) this.always();
  }
}

/** Every price rule of a Live or paused bot with nothing pending, in the order of docs/trading-rules.md §2.2. */
function collectLevels(s: GridBotState, hooks: GridHooks, levels: RuleLevels): void {
  riskLevels(s, levels);
  const restart = restartLevel(s);
  if (restart !== null) levels.fallTo(restart);
  hooks.takeProfitLevels(s, levels);
  if (s.status === 'Live') {
    const k = nextGrid(s, s.lots);
    const newest = s.lots[s.lots.length - 1];
    if (k > 0 && newest === undefined) levels.always();
    else if (k > 0 && newest !== undefined) hooks.buyLevels(s, newest.price, s.trail, k, levels);
  }
  drawdownLevels(s, levels);
}

/** The quiet band of `s` (never UNSET: EMPTY when no price is quiet). */
export function quietBand(s: GridBotState, hooks: GridHooks): QuietBand {
  if (s.pending.length > 0 || s.exitRequest !== null || s.status === 'Stopped') return EMPTY_BAND;
  // 0 and MAX_VALUE rather than infinities: the band is stored with the state, as JSON.
  const band = new BandBuilder(0, Number.MAX_VALUE, true);
  collectLevels(s, hooks, band);
  if (band.any) return EMPTY_BAND;
  const lo = band.lo * (1 + MARGIN) + Number.MIN_VALUE;
  const hi = band.hi * (1 - MARGIN);
  return lo < hi ? { lo, hi } : EMPTY_BAND;
}

/**
 * The event band of docs/trading-rules.md §2.5's path model: the exact levels at which the next rule fires when the
 * price moves from inside (lo, hi): up to `hi` (pause, profit-book, take-profit arming, a trailing
 * buy's rebound, Scalping's take-profit) or down to `lo` (stoploss, liquidation, restart, a buy
 * level, an armed lot's trailing sell). Unlike the quiet band it leaves out what merely follows the
 * path (a trailing high or low, peak equity and drawdown): those change on a monotone line only at
 * its end, where the path runner feeds the point anyway. `lo = +∞, hi = −∞` means a rule fires at
 * any price (e.g. an empty stack buys at market); `lo = −∞, hi = +∞` means none ever fires.
 */
export function eventBand(s: GridBotState, hooks: GridHooks): QuietBand {
  if (s.status === 'Stopped') return NO_EVENTS;
  if (s.pending.length > 0 || s.exitRequest !== null) return ANY_PRICE;
  const band = new BandBuilder(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, false);
  collectLevels(s, hooks, band);
  return band.any ? ANY_PRICE : { lo: band.lo, hi: band.hi };
}

/** A band in which no rule ever fires (a stopped bot). */
export const NO_EVENTS: QuietBand = { lo: Number.NEGATIVE_INFINITY, hi: Number.POSITIVE_INFINITY };
/** A band that holds no price: a rule fires at any price. */
export const ANY_PRICE: QuietBand = { lo: Number.POSITIVE_INFINITY, hi: Number.NEGATIVE_INFINITY };
