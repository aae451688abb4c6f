import type { EngineRules, RangeIntent, RangeState } from '@gridbot/engine';
import type { BotIdentity, BotRunnerDeps } from './bot-context';
import type { FillRecord, PnlOnRow } from './fills.repo';

/**
 * What a running range grid's booking and reconciliation work on (`RangeRunner` is the one implementation):
 * the grid's state and last price, and the runner's steps they call back into. Every call runs inside the
 * runner's serial queue, so the state is never read and written by two tasks at once.
 */
export interface RangeCore {
  readonly id: BotIdentity;
  readonly rules: EngineRules;
  readonly deps: BotRunnerDeps;
  state: RangeState;
  readonly lastPrice: number | null;
  /** The state moved without a write; the next flush writes it. */
  dirty: boolean;
  readonly finished: boolean;
  cid(seq: number): string;
  /**
   * Books a fill the state now holds: written at once, or, while the runner walks a tick's line, with the
   * next write of the grid's state (the intents of its answer, `carryOut`) and at the latest at the line's end.
   */
  bookFill(fill: FillRecord | PnlOnRow, p: number): Promise<void>;
  /** Writes the fills booked and not yet written, with the state (before a write that does not carry them). */
  writeBooked(): Promise<void>;
  /** Writes the state with its intents (before anything is sent, §3), then sends them one by one. */
  carryOut(intents: readonly RangeIntent[], p: number): Promise<void>;
  execute(intent: RangeIntent, p: number): Promise<void>;
  cancel(cancelSeq: number, orderSeq: number): Promise<void>;
  settle(p: number, timeMs: number): Promise<void>;
  halt(reason: string): Promise<void>;
  finishIfStopped(): void;
}
