/** Messages between the page and a backtest worker. */
import type { GridBacktestInput } from '@gridbot/engine';
import type { BacktestOutcome } from '../lib/backtest-core';

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

export type WorkerReply =
  | { type: 'progress'; id: number; done: number; total: number }
  | { type: 'done'; id: number; outcome: BacktestOutcome; candles: number }
  | { type: 'failed'; id: number; status: number; message: string };
