import { InvariantError } from '../errors';
import type { BotStatus } from '../types';

/** A lifecycle as one explicit table: state → event → next state (docs/contributing.md §3). */
export type TransitionTable<S extends string, E extends string> = Readonly<Record<S, Partial<Record<E, S>>>>;

/** Next state of `from` on `event`; throws `InvariantError` when the table has no such transition. */
export function transition<S extends string, E extends string>(
  table: TransitionTable<S, E>,
  lifecycle: string,
  from: S,
  event: E,
): S {
  const to = table[from]?.[event];
  if (to === undefined) throw new InvariantError(`${lifecycle}: no transition from ${from} on ${event}`);
  return to;
}

export type BotEvent =
  | 'pause'
  | 'restart'
  | 'stop'
  | 'undo_pause'
  | 'undo_stop_from_live'
  | 'undo_stop_from_pause';

/**
 * Bot status (docs/trading-rules.md §2.2). Pause and stop are decided on a tick when the sell-all intent is issued;
 * the `undo_*` events put the status back when that sell is reported failed, so the bot goes on.
 */
export const BOT_STATUS: TransitionTable<BotStatus, BotEvent> = {
  Live: { pause: 'Pause', stop: 'Stopped' },
  Pause: { restart: 'Live', stop: 'Stopped', undo_pause: 'Live' },
  Stopped: { undo_stop_from_live: 'Live', undo_stop_from_pause: 'Pause' },
};

export type LotPhase = 'Open' | 'Armed' | 'Selling' | 'Closed';
export type LotEvent = 'arm' | 'raise_high' | 'trail_hit' | 'sell_all' | 'filled' | 'sell_failed';

/** Lot arming (docs/trading-rules.md §2.2 step 3). `Selling` lots live in a pending intent, not on the stack. */
export const LOT_PHASE: TransitionTable<LotPhase, LotEvent> = {
  Open: { arm: 'Armed', sell_all: 'Selling' },
  Armed: { raise_high: 'Armed', trail_hit: 'Selling', sell_all: 'Selling' },
  Selling: { filled: 'Closed', sell_failed: 'Open' },
  Closed: {},
};

export type CycleStatus = 'WaitBuy' | 'Buying' | 'Holding' | 'Selling' | 'Completed' | 'Stopped';
export type CycleEvent =
  | 'buy'
  | 'bought'
  | 'buy_failed'
  | 'sell'
  | 'sold_again'
  | 'sold_last'
  | 'sold_stop'
  | 'sell_failed'
  | 'sell_failed_stopped'
  | 'stop'
  /** Every coin it held was sold outside the platform, and the user dropped the lot on Resume. */
  | 'lot_dropped';

/** Cycle (docs/trading-rules.md §2.4). `Buying`/`Selling` hold while the order is outstanding. */
export const CYCLE_STATUS: TransitionTable<CycleStatus, CycleEvent> = {
  WaitBuy: { buy: 'Buying', stop: 'Stopped' },
  Buying: { bought: 'Holding', buy_failed: 'WaitBuy', stop: 'Stopped' },
  Holding: { sell: 'Selling', stop: 'Stopped', lot_dropped: 'WaitBuy' },
  Selling: {
    stop: 'Stopped',
    sold_again: 'WaitBuy',
    sold_last: 'Completed',
    sold_stop: 'Stopped',
    sell_failed: 'Holding',
    sell_failed_stopped: 'Stopped',
  },
  Completed: {},
  /** A stop without selling may leave a position: a pending buy still lands, stop-and-sell sells it. */
  Stopped: {
    bought: 'Stopped',
    buy_failed: 'Stopped',
    sell: 'Selling',
    sold_stop: 'Stopped',
    sell_failed_stopped: 'Stopped',
  },
};
