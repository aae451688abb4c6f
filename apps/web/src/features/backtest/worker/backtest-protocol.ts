/** Messages between the page and a backtest worker. */
import type { GridBacktestInput, RangeBacktestInput } from '@gridbot/engine';
import type { BacktestOutcome } from '../lib/backtest-core';
import type { RangeOutcome } from '../lib/range-core';

export interface RunMessage {
  type: 'run';
  id: number;
  /** GET /api/candles?…&from&to: the worker fetches and decodes the candles itself (no parsing on the page). */
  candlesUrl: string;
  token: string | null;
  input: GridBacktestInput;
  /** Only the candles opening in [fromMs, toMs) of those fetched (the two parts of an out-of-sample run). */
  range?: { fromMs: number; toMs: number };
  /** False: figures only, no fill rows (a sweep). */
  record?: boolean;
}

/** A range grid backtest (docs/trading-rules.md §2.6) on the same candles. */
export interface RunRangeMessage {
  type: 'run-range';
  id: number;
  candlesUrl: string;
  token: string | null;
  input: RangeBacktestInput;
  range?: { fromMs: number; toMs: number };
}

export type WorkerReply =
  | { type: 'progress'; id: number; done: number; total: number }
  | { type: 'done'; id: number; outcome: BacktestOutcome; candles: number }
  | { type: 'range-done'; id: number; outcome: RangeOutcome; candles: number }
  | { type: 'failed'; id: number; status: number; message: string };
