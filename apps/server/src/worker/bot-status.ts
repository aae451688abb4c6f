import type { bots } from '@gridbot/db';
import type { EngineState } from '@gridbot/engine';

export type BotStatus = (typeof bots.$inferSelect)['status'];

/** Whether the engine has stopped the bot (its orders may still be out). */
export const engineStopped = (state: EngineState) =>
  state.status === 'Stopped' || state.status === 'Completed';

/**
 * Whether the bot is on its way out but not done (docs/trading-rules.md §3 "A stopping bot is not done until its last order
 * is"): stopped with an order still pending, or asked to stop and sell with coins still to sell.
 */
export function isStopping(state: EngineState): boolean {
  if (state.pending.length > 0) return engineStopped(state);
  return state.exitRequest !== null && (state.lots.length > 0 || !engineStopped(state));
}

/** The `bots.status` the engine's state stands for. */
export function statusOf(state: EngineState): BotStatus {
  if (isStopping(state)) return 'Stopping';
  if (engineStopped(state)) return 'Stopped';
  return state.status === 'Pause' ? 'Pause' : 'Live';
}
