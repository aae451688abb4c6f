/**
 * The per-tick pipeline of docs/trading-rules.md §2.2 shared by Multigrid and Scalping: risk exits, restart,
 * take-profit, buy. Strategy-specific parts (take-profit, buy trigger) are passed in as hooks.
 * Hot path: a tick that changes nothing allocates only the result object and returns the same state.
 */
import { carriedDust, equityAt } from '../pnl/pnl';
import type { EngineRules } from '../rules';
import type {
  BotStatus,
  Intent,
  Lot,
  Notice,
  PendingIntent,
  SellReason,
  SkippedBuy,
  Stats,
  StepResult,
  StopReason,
  Tick,
} from '../types';
import { type GridBotState, NO_TRAIL, type TrailingBuy } from './grid-bot.state';
import { type Exit, nextGrid, type RuleLevels, restartLevel, riskExit, trackDrawdown } from './grid-rules';
import { liquidation, NO_INTENTS, newestFirst, pendingOf, planBuy, sellLots } from './intents';
import { inQuietBand, quietBand } from './quiet-band';
import { BOT_STATUS, transition } from './transitions';

export interface TakeProfitOutcome {
  /** The stack after arming/selling (may be the same array when nothing changed). */
  lots: Lot[];
  /** Lots to sell, newest first, each in its own order; or all together when `together`. */
  sold: Lot[];
  together: boolean;
}

/** A strategy's own rules, each with the levels at which it fires (for the bands of quiet-band.ts). */
export interface GridHooks {
  takeProfit(state: GridBotState, p: number): TakeProfitOutcome | null;
  /** Where `takeProfit` arms, sells or moves a trailing high. */
  takeProfitLevels(state: GridBotState, levels: RuleLevels): void;
  /** Whether grid `k` buys now, and the trailing state after this tick. */
  buyTrigger(state: GridBotState, base: number, trail: TrailingBuy, k: number, p: number): BuyTrigger;
  /** Where `buyTrigger` buys grid `k` or moves a trailing low. */
  buyLevels(state: GridBotState, base: number, trail: TrailingBuy, k: number, levels: RuleLevels): void;
}

export interface BuyTrigger {
  trail: TrailingBuy;
  buy: boolean;
}

/** The state with its quiet band computed (quiet-band.ts). */
function settle(state: GridBotState, hooks: GridHooks): GridBotState {
  return { ...state, quiet: quietBand(state, hooks) };
}

function exitTick(
  state: GridBotState,
  stats: Stats,
  exit: Exit,
  tick: Tick,
  rules: EngineRules,
  hooks: GridHooks,
): StepResult<GridBotState> {
  if (exit === 'pause' && state.status === 'Pause') {
    return { state: stats === state.stats ? state : settle({ ...state, stats }, hooks), intents: NO_INTENTS };
  }
  const status = transition(BOT_STATUS, 'bot status', state.status, exit === 'pause' ? 'pause' : 'stop');
  const stopReason: StopReason | null = exit === 'pause' ? null : exit;
  const lots = state.lots;
  let intents: readonly Intent[] = NO_INTENTS;
  let pending: PendingIntent[] = state.pending;
  let seq = state.seq;
  if (lots.length > 0) {
    seq += 1;
    const sold = newestFirst(lots);
    const intent =
      exit === 'liquidated'
        ? liquidation(seq, sold, state.account.liqPrice, state.account)
        : sellLots(seq, sold, tick.price, exit as SellReason, rules, carriedDust(state.account));
    intents = [intent];
    pending = [pendingOf(intent, sold, state.status, state.stopReason, status)];
  }
  return {
    state: {
      ...state,
      status,
      stopReason,
      lots: [],
      trail: NO_TRAIL,
      seq,
      pending,
      exitRequest: null,
      stats,
    },
    intents,
  };
}

/** One tick of a Multigrid or Scalping bot. */
export function stepGrid(
  state: GridBotState,
  tick: Tick,
  rules: EngineRules,
  hooks: GridHooks,
): StepResult<GridBotState> {
  const p = tick.price;
  if (inQuietBand(state.quiet, tick)) return { state, intents: NO_INTENTS };
  if (state.pending.length > 0) return { state, intents: NO_INTENTS };
  if (state.status === 'Stopped') {
    if (state.exitRequest !== null && state.lots.length > 0) return stoppedSell(state, tick, rules, hooks);
    return { state, intents: NO_INTENTS };
  }
  const stats = trackDrawdown(state.stats, equityAt(state.account, p));
  const exit = riskExit(state, p, tick.markPrice ?? p, rules);
  if (exit !== null) return exitTick(state, stats, exit, tick, rules, hooks);

  const restart = restartLevel(state);
  const d: Draft = {
    status:
      restart !== null && p <= restart
        ? transition(BOT_STATUS, 'bot status', state.status, 'restart')
        : state.status,
    lots: state.lots,
    trail: state.trail,
    seq: state.seq,
    intents: [],
    pending: [],
    notices: null,
    skippedBuy: state.skippedBuy ?? null,
    timeMs: tick.timeMs,
  };
  if (d.lots.length > 0) takeProfitPhase(state, d, p, rules, hooks);
  if (d.status === 'Live') buyPhase(state, d, p, rules, hooks);
  return finish(state, d, stats, hooks);
}

/** What one full-path tick decides; local to `stepGrid`, never stored. */
interface Draft {
  status: BotStatus;
  lots: Lot[];
  trail: TrailingBuy;
  seq: number;
  intents: Intent[];
  pending: PendingIntent[];
  notices: Notice[] | null;
  skippedBuy: SkippedBuy | null;
  timeMs: number;
}

/** Step 3: lots sold by take-profit become one sell intent each (Scalping: one for all). */
function takeProfitPhase(
  state: GridBotState,
  d: Draft,
  p: number,
  rules: EngineRules,
  hooks: GridHooks,
): void {
  const tp = hooks.takeProfit(state, p);
  if (tp === null) return;
  const newestBefore = d.lots[d.lots.length - 1];
  d.lots = tp.lots;
  const groups = tp.together ? [tp.sold] : tp.sold.map((l) => [l]);
  // The dust goes with the first sell only, so two sells never count it twice.
  let dust = carriedDust(state.account);
  for (const group of groups) {
    if (group.length === 0) continue;
    d.seq += 1;
    const intent = sellLots(d.seq, group, p, 'take_profit', rules, dust);
    dust = 0;
    d.intents.push(intent);
    d.pending.push(pendingOf(intent, group, state.status, state.stopReason));
  }
  if (d.lots[d.lots.length - 1]?.id !== newestBefore?.id) d.trail = NO_TRAIL;
}

/** Step 4: at most one buy per tick. */
function buyPhase(state: GridBotState, d: Draft, p: number, rules: EngineRules, hooks: GridHooks): void {
  const buy = decideBuy(state, d.lots, d.trail, p, hooks);
  d.trail = buy.trail;
  if (buy.grid === 0) return;
  const quote = state.account.investment * (state.params.alloc[buy.grid - 1] ?? 0);
  const plan = planBuy(d.seq + 1, buy.grid, quote, state.leverage, p, rules);
  if (!plan.ok) {
    d.notices = [plan.notice];
    d.skippedBuy = skippedFrom(d.skippedBuy, plan.notice, d.timeMs);
    return;
  }
  d.seq += 1;
  d.intents.push(plan.intent);
  d.pending.push(pendingOf(plan.intent, [], state.status, state.stopReason));
  d.trail = NO_TRAIL;
}

/** The skipped buy to keep: the same object while the same grid is skipped for the same reason. */
export function skippedFrom(current: SkippedBuy | null, notice: Notice, timeMs: number): SkippedBuy {
  if (current !== null && current.grid === notice.grid && current.reason === notice.reason) return current;
  const { grid, reason, notional, minNotional } = notice;
  return { grid, reason, notional, minNotional, timeMs };
}

/** The step result: the same state when nothing changed, else a new one with its quiet band. */
function finish(state: GridBotState, d: Draft, stats: Stats, hooks: GridHooks): StepResult<GridBotState> {
  const unchanged =
    d.status === state.status &&
    d.lots === state.lots &&
    d.trail === state.trail &&
    d.seq === state.seq &&
    stats === state.stats &&
    d.skippedBuy === (state.skippedBuy ?? null);
  let next: GridBotState;
  if (unchanged) {
    next = state.quiet.lo > state.quiet.hi ? settle(state, hooks) : state;
  } else {
    next = { ...state, status: d.status, lots: d.lots, trail: d.trail, seq: d.seq, stats };
    if (d.skippedBuy !== (state.skippedBuy ?? null)) next.skippedBuy = d.skippedBuy;
    if (d.pending.length > 0) next.pending = d.pending;
    if (d.status !== state.status && d.status === 'Live') next.stopReason = null;
    next.quiet = quietBand(next, hooks);
  }
  const intents = d.intents.length > 0 ? d.intents : NO_INTENTS;
  return d.notices === null ? { state: next, intents } : { state: next, intents, notices: d.notices };
}

function decideBuy(
  state: GridBotState,
  lots: readonly Lot[],
  trail: TrailingBuy,
  p: number,
  hooks: GridHooks,
): { grid: number; trail: TrailingBuy } {
  const k = nextGrid(state, lots);
  const newest = lots[lots.length - 1];
  if (k === 0 || newest === undefined) return { grid: k, trail };
  const t = hooks.buyTrigger(state, newest.price, trail, k, p);
  return { grid: t.buy ? k : 0, trail: t.trail };
}

/** A stopped bot asked to stop-and-sell: sell what it still holds. */
function stoppedSell(
  state: GridBotState,
  tick: Tick,
  rules: EngineRules,
  hooks: GridHooks,
): StepResult<GridBotState> {
  const seq = state.seq + 1;
  const sold = newestFirst(state.lots);
  const intent = sellLots(seq, sold, tick.price, 'manual_sell', rules, carriedDust(state.account));
  return {
    state: settle(
      {
        ...state,
        stopReason: 'manual_sell',
        lots: [],
        trail: NO_TRAIL,
        seq,
        pending: [pendingOf(intent, sold, state.status, state.stopReason)],
        exitRequest: null,
      },
      hooks,
    ),
    intents: [intent],
  };
}
