import type { bots } from '@gridbot/db';
import type { EngineState, RangeState } from '@gridbot/engine';

export type BotStatus = (typeof bots.$inferSelect)['status'];

/** The engine state of any bot the runtime runs: grid bots and cycles, or a range grid (docs/trading-rules.md §2.6). */
export type RuntimeState = EngineState | RangeState;

/** Whether the engine has stopped the bot (its orders may still be out). */
export const engineStopped = (state: RuntimeState) =>
  state.status === 'Stopped' || state.status === 'Completed';

/**
 * Whether the bot is on its way out but not done (docs/trading-rules.md §3 "A stopping bot is not done until its last order
 * is"): stopped with an order still pending, or asked to stop and sell with coins still to sell.
 */
export function isStopping(state: RuntimeState): boolean {
  // A range grid stopping with a sale: its market order is in flight.
  if (state.kind === 'range') return state.status === 'Stopped' && state.pending !== null;
  if (state.pending.length > 0) return engineStopped(state);
  return state.exitRequest !== null && (state.lots.length > 0 || !engineStopped(state));
}

/** The `bots.status` the engine's state stands for. */
export function statusOf(state: RuntimeState): BotStatus {
  if (isStopping(state)) return 'Stopping';
  if (engineStopped(state)) return 'Stopped';
  // A range grid waiting for its trigger runs (it watches the price).
  if (state.kind === 'range') return 'Live';
  return state.status === 'Pause' ? 'Pause' : 'Live';
}
