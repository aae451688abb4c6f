/**
 * Cycle (docs/trading-rules.md §2.4): WaitBuy → (p ≤ buy_price) buy → Holding → (p ≥ sell_price) sell → WaitBuy or
 * Completed; Holding and p ≤ stop_loss → sell, Stopped. Futures positions can also be liquidated
 * (the exchange does it whatever the strategy says; same formula as docs/trading-rules.md §2.2).
 */
import { trackDrawdown } from '../../core/grid-rules';
import { skippedFrom } from '../../core/grid-tick';
import { liquidation, NO_INTENTS, pendingOf, planBuy, sellLots } from '../../core/intents';
import { ANY_PRICE, NO_EVENTS, type QuietBand } from '../../core/quiet-band';
import { CYCLE_STATUS, transition } from '../../core/transitions';
import { carriedDust, equityAt } from '../../pnl/pnl';
import type { EngineRules } from '../../rules';
import type { Intent, SellReason, StepResult, Tick } from '../../types';
import type { CycleState } from './cycle.state';

/** One tick of a cycle. */
export function stepCycle(state: CycleState, tick: Tick, rules: EngineRules): StepResult<CycleState> {
  if (state.pending.length > 0) return { state, intents: NO_INTENTS };
  const p = tick.price;
  const status = state.status;
  if (status === 'Completed' || (status === 'Stopped' && state.exitRequest === null)) {
    return { state, intents: NO_INTENTS };
  }
  const stats = trackDrawdown(state.stats, equityAt(state.account, p));
  const lot = state.lots[0];
  if (lot !== undefined) {
    const reason = sellReason(state, p, tick.markPrice ?? p, rules);
    if (reason === null)
      return { state: stats === state.stats ? state : { ...state, stats }, intents: NO_INTENTS };
    const seq = state.seq + 1;
    const intent: Intent =
      reason === 'liquidated'
        ? liquidation(seq, state.lots, state.account.liqPrice, state.account)
        : sellLots(seq, state.lots, p, reason, rules, carriedDust(state.account));
    const next: CycleState = {
      ...state,
      status: transition(CYCLE_STATUS, 'cycle', status, 'sell'),
      lots: [],
      seq,
      pending: [pendingOf(intent, state.lots, status, state.stopReason)],
      exitRequest: null,
      stats,
    };
    return { state: next, intents: [intent] };
  }
  if (state.exitRequest !== null) {
    const stopped = status === 'Stopped' ? status : transition(CYCLE_STATUS, 'cycle', status, 'stop');
    return {
      state: { ...state, status: stopped, stopReason: 'manual_sell', exitRequest: null, stats },
      intents: NO_INTENTS,
    };
  }
  if (status !== 'WaitBuy' || p > state.params.buyPrice) {
    return { state: stats === state.stats ? state : { ...state, stats }, intents: NO_INTENTS };
  }
  const plan = planBuy(state.seq + 1, 1, state.params.amount, state.leverage, p, rules);
  if (!plan.ok) {
    const skippedBuy = skippedFrom(state.skippedBuy ?? null, plan.notice, tick.timeMs);
    return { state: { ...state, stats, skippedBuy }, intents: NO_INTENTS, notices: [plan.notice] };
  }
  const next: CycleState = {
    ...state,
    status: transition(CYCLE_STATUS, 'cycle', status, 'buy'),
    seq: plan.intent.seq,
    pending: [pendingOf(plan.intent, [], status, state.stopReason)],
    stats,
  };
  return { state: next, intents: [plan.intent] };
}

/** Why the held lot sells at `p`; the liquidation is on the `mark` price (docs/trading-rules.md §2.2). */
function sellReason(state: CycleState, p: number, mark: number, rules: EngineRules): SellReason | null {
  if (state.exitRequest !== null) return 'manual_sell';
  if (state.status !== 'Holding') return null;
  const a = state.account;
  const sl = state.params.stopLoss;
  // With `liquidationFromExchange` only the exchange reports a liquidation (docs/trading-rules.md §3).
  const liquidated = !rules.liquidationFromExchange && a.liqPrice > 0 && mark <= a.liqPrice;
  // Both levels under one tick: the falling price crossed the higher one first (docs/trading-rules.md §2.2).
  if (sl !== null && p <= sl && !(liquidated && a.liqPrice >= sl)) return 'stoploss';
  if (liquidated) return 'liquidated';
  if (p >= state.params.sellPrice) return 'take_profit';
  return null;
}

/**
 * The event band of a cycle for the path model (core/quiet-band.ts `eventBand`): the levels of `sellReason`
 * while it holds and of the buy while it waits.
 */
export function cycleEventBand(s: CycleState): QuietBand {
  if (s.pending.length > 0 || s.exitRequest !== null) return ANY_PRICE;
  if (s.status === 'WaitBuy') return { lo: s.params.buyPrice, hi: Number.POSITIVE_INFINITY };
  if (s.status !== 'Holding') return NO_EVENTS;
  let lo = s.params.stopLoss ?? Number.NEGATIVE_INFINITY;
  if (s.account.liqPrice > 0) lo = Math.max(lo, s.account.liqPrice);
  return { lo, hi: s.params.sellPrice };
}
