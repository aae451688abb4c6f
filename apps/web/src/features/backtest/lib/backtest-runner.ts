/**
 * The page's side of the backtest workers: one worker per running backtest, started through Vite's worker
 * import, cancelled by ending it (the engine loop is synchronous inside the worker). A pool of them runs a
 * sweep.
 */
import type { GridBacktestInput, RangeBacktestInput } from '@gridbot/engine';
import { type CandleCoverageQuery, type HistoryInterval, marketApiPaths } from '@gridbot/shared';
import { getToken } from '../../../lib/session';
import type { RunMessage, RunRangeMessage, WorkerReply } from '../worker/backtest-protocol';
import type { BacktestOutcome } from './backtest-core';
import type { RangeOutcome } from './range-core';

export interface HistoryPeriod extends CandleCoverageQuery {
  interval: HistoryInterval;
  fromMs: number;
  toMs: number;
}

export function candlesUrl(p: HistoryPeriod): string {
  const q = new URLSearchParams({
    symbol: p.symbol,
    category: p.category,
    interval: p.interval,
    from: String(p.fromMs),
    to: String(p.toMs),
  });
  return `${marketApiPaths.candles}?${q}`;
}

export interface RunRequest {
  period: HistoryPeriod;
  input: GridBacktestInput;
  range?: { fromMs: number; toMs: number };
  record?: boolean;
}

export interface RunDone {
  outcome: BacktestOutcome;
  candles: number;
}

/** A range grid backtest (docs/trading-rules.md §2.6) on a period, or on the part `range` of it. */
export interface RangeRunRequest {
  period: HistoryPeriod;
  input: RangeBacktestInput;
  range?: { fromMs: number; toMs: number };
}

export interface RangeRunDone {
  outcome: RangeOutcome;
  candles: number;
}

/** A failed run: the server's message (e.g. no candles for the period) and its status. */
export class BacktestRunError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'BacktestRunError';
  }
}

export class CancelledError extends Error {
  constructor() {
    super('Backtest cancelled.');
    this.name = 'CancelledError';
  }
}

function createWorker(): Worker {
  return new Worker(new URL('../worker/backtest.worker.ts', import.meta.url), { type: 'module' });
}

/** One worker; runs one backtest at a time. */
export class BacktestRunner {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending: { id: number; reject: (e: Error) => void } | null = null;

  run(req: RunRequest, onProgress?: (done: number, total: number) => void): Promise<RunDone> {
    const id = this.nextId++;
    return this.send<RunDone>(
      {
        type: 'run',
        id,
        candlesUrl: candlesUrl(req.period),
        token: getToken(),
        input: req.input,
        ...(req.range ? { range: req.range } : {}),
        ...(req.record === false ? { record: false } : {}),
      },
      (m) => (m.type === 'done' ? { outcome: m.outcome, candles: m.candles } : null),
      onProgress,
    );
  }

  /** A range grid backtest; the worker keeps the fetched period, so a second part of it starts at once. */
  runRange(req: RangeRunRequest, onProgress?: (done: number, total: number) => void): Promise<RangeRunDone> {
    const id = this.nextId++;
    return this.send<RangeRunDone>(
      {
        type: 'run-range',
        id,
        candlesUrl: candlesUrl(req.period),
        token: getToken(),
        input: req.input,
        ...(req.range ? { range: req.range } : {}),
      },
      (m) => (m.type === 'range-done' ? { outcome: m.outcome, candles: m.candles } : null),
      onProgress,
    );
  }

  private send<T>(
    message: RunMessage | RunRangeMessage,
    done: (reply: WorkerReply) => T | null,
    onProgress?: (done: number, total: number) => void,
  ): Promise<T> {
    this.worker ??= createWorker();
    const worker = this.worker;
    const id = message.id;
    return new Promise<T>((resolve, reject) => {
      this.pending = { id, reject };
      worker.onmessage = (event: MessageEvent<WorkerReply>) => {
        const m = event.data;
        if (m.id !== id) return;
        if (m.type === 'progress') {
          onProgress?.(m.done, m.total);
          return;
        }
        this.pending = null;
        if (m.type === 'failed') {
          reject(new BacktestRunError(m.status, m.message));
          return;
        }
        const result = done(m);
        if (result === null) reject(new BacktestRunError(500, 'The backtest answered another kind of run.'));
        else resolve(result);
      };
      worker.onerror = (event) => {
        this.pending = null;
        reject(new BacktestRunError(500, event.message || 'The backtest stopped unexpectedly.'));
      };
      worker.postMessage(message);
    });
  }

  /** Stops the running backtest at once (the worker is ended; the next run starts a new one). */
  cancel(): void {
    this.worker?.terminate();
    this.worker = null;
    this.pending?.reject(new CancelledError());
    this.pending = null;
  }

  dispose(): void {
    this.cancel();
  }
}

/**
 * Workers for a sweep: one per core, at least two, at most four. The page itself only draws the map as
 * results arrive, so it needs no core of its own.
 */
export function poolSize(): number {
  const cores = typeof navigator === 'undefined' ? 2 : navigator.hardwareConcurrency || 2;
  return Math.max(2, Math.min(4, cores));
}

/**
 * Runs every request over a pool of workers, each result reported as it arrives; `signal` cancels the rest.
 * Answers the results in request order.
 */
export function runPool(
  requests: readonly RunRequest[],
  onResult: (index: number, done: RunDone) => void,
  signal: AbortSignal,
  size = poolSize(),
): Promise<RunDone[]> {
  return pool(requests, (runner, req) => runner.run(req), onResult, signal, size);
}

/** `runPool` for range grid backtests (docs/trading-rules.md §2.6). */
export function runRangePool(
  requests: readonly RangeRunRequest[],
  onResult: (index: number, done: RangeRunDone) => void,
  signal: AbortSignal,
  size = poolSize(),
): Promise<RangeRunDone[]> {
  return pool(requests, (runner, req) => runner.runRange(req), onResult, signal, size);
}

async function pool<Req, Done>(
  requests: readonly Req[],
  exec: (runner: BacktestRunner, req: Req) => Promise<Done>,
  onResult: (index: number, done: Done) => void,
  signal: AbortSignal,
  size: number,
): Promise<Done[]> {
  const runners = Array.from({ length: Math.min(size, requests.length) }, () => new BacktestRunner());
  const results: Done[] = new Array(requests.length);
  let next = 0;
  const stop = () => {
    for (const r of runners) r.cancel();
  };
  signal.addEventListener('abort', stop, { once: true });
  try {
    await Promise.all(
      runners.map(async (runner) => {
        while (next < requests.length) {
          if (signal.aborted) throw new CancelledError();
          const index = next++;
          const done = await exec(runner, requests[index] as Req);
          results[index] = done;
          onResult(index, done);
        }
      }),
    );
    return results;
  } finally {
    signal.removeEventListener('abort', stop);
    for (const r of runners) r.dispose();
  }
}
