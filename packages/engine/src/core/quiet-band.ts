/**
 * The quiet band: the open price interval (lo, hi) inside which a grid bot's tick changes nothing —
 * no risk exit, no restart, no take-profit arming or selling, no trailing move, no buy, no new peak or
 * drawdown. Every rule of DESIGN §2.2–2.3 is a price threshold for a given state, so the band is the
 * intersection of "this rule does not fire" intervals, computed once whenever the state changes.
 *
 * It is shrunk by a relative margin well above the float error of the thresholds, so inside it the
 * full evaluation is certain to return the state unchanged; near any threshold the full path decides.
 * This is what makes a quiet tick cost two comparisons (the hot path of the engine benchmark).
 */
import type { GridBotState } from './grid-bot.state';

export interface QuietBand {
  lo: number;
  hi: number;
}

/** No band: every tick takes the full path (and stores a fresh band). `lo > hi`, JSON-safe. */
export const UNSET_BAND: QuietBand = { lo: 1, hi: 0 };
/** A band that holds no price (a rule fires at any price, e.g. an empty stack buys at market). */
const EMPTY_BAND: QuietBand = { lo: 0, hi: 0 };

const MARGIN = 4e-9;

/** The quiet band of `s` (never UNSET: EMPTY when no price is quiet). */
export function quietBand(s: GridBotState): QuietBand {
  if (s.pending.length > 0 || s.exitRequest !== null || s.status === 'Stopped') return EMPTY_BAND;
  const st = s.settings;
  const a = s.account;
  const q = a.openQty;
  let lo = 0;
  let hi = Number.MAX_VALUE;
  if (st.stoplossPrice !== null) lo = Math.max(lo, st.stoplossPrice);
  if (st.pausePrice !== null) hi = Math.min(hi, st.pausePrice);
  const base = a.investment + a.bookedProfit - a.openCost;
  if (st.profitBookPct !== null) {
    const target = (st.profitBookPct / 100) * a.investment;
    if (q > 0) hi = Math.min(hi, (target - a.bookedProfit + a.openCost) / q);
    else if (a.bookedProfit >= target) return EMPTY_BAND;
  }
  if (a.liqPrice > 0 && q > 0) lo = Math.max(lo, a.liqPrice);
  if (s.status === 'Pause' && st.restartPrice !== null) lo = Math.max(lo, st.restartPrice);
  const params = s.params;
  if (params.type === 'multigrid') {
    for (const lot of s.lots) {
      if (!lot.armed) {
        hi = Math.min(hi, lot.tpPrice);
      } else {
        hi = Math.min(hi, lot.high);
        lo = Math.max(lo, lot.high * (1 - lot.tpDownPct / 100));
      }
    }
  } else if (q > 0) {
    hi = Math.min(hi, (a.openQuote / q) * (1 + params.tpPct / 100));
  }
  if (s.status === 'Live') {
    const newest = s.lots[s.lots.length - 1];
    const k = s.lots.length + 1;
    const ob = st.overbuy;
    if (newest === undefined) {
      if (st.newCyclesAllowed) return EMPTY_BAND;
    } else if (k <= params.grids && !(ob.active && ob.value !== null && k > ob.value)) {
      const drop = params.buyPct[k - 1] ?? 0;
      if (params.type === 'multigrid' && s.trail.armed) {
        lo = Math.max(lo, s.trail.low);
        hi = Math.min(hi, s.trail.low * (1 + (params.buyUpPct[k - 1] ?? 0) / 100));
      } else {
        lo = Math.max(lo, newest.price * (1 - drop / 100));
      }
    }
  }
  const peak = s.stats.peakEquity;
  const troughEquity = peak * (1 - s.stats.maxDrawdownPct / 100);
  if (q > 0) {
    hi = Math.min(hi, (peak - base) / q);
    lo = Math.max(lo, (troughEquity - base) / q);
  } else if (base > peak || base < troughEquity) {
    return EMPTY_BAND;
  }
  lo = lo * (1 + MARGIN) + Number.MIN_VALUE;
  hi *= 1 - MARGIN;
  return lo < hi ? { lo, hi } : EMPTY_BAND;
}
