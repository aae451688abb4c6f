import type { GridBacktestInput } from '@gridbot/engine';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BacktestOutcomeOk } from '../lib/backtest-core';
import { BacktestRunError, BacktestRunner, CancelledError, type HistoryPeriod } from '../lib/backtest-runner';

export interface BacktestRequest {
  period: HistoryPeriod;
  input: GridBacktestInput;
}

export type BacktestState =
  | { status: 'idle' }
  | { status: 'running'; progress: number }
  | { status: 'done'; result: BacktestOutcomeOk; candles: number }
  | { status: 'error'; message: string };

/**
 * Results per (strategy, pair, period, amount, settings) for this page load: the same backtest asked again
 * (back on a screen, a setting changed and changed back) shows at once.
 */
const results = new Map<string, { result: BacktestOutcomeOk; candles: number }>();
const MAX_CACHED = 50;

export function backtestKey(req: BacktestRequest): string {
  return JSON.stringify(req);
}

/** Runs one backtest at a time in a worker; a new run cancels the one before. */
export function useBacktest() {
  const [state, setState] = useState<BacktestState>({ status: 'idle' });
  const runner = useRef<BacktestRunner | null>(null);
  const lastProgress = useRef(0);

  useEffect(() => () => runner.current?.dispose(), []);

  const run = useCallback((req: BacktestRequest) => {
    runner.current?.cancel();
    const key = backtestKey(req);
    const cached = results.get(key);
    if (cached) {
      setState({ status: 'done', ...cached });
      return;
    }
    runner.current ??= new BacktestRunner();
    lastProgress.current = 0;
    setState({ status: 'running', progress: 0 });
    runner.current
      .run(req, (done, total) => {
        const progress = done / total;
        // A re-render per tenth is enough for the bar.
        if (progress - lastProgress.current >= 0.1 || done === total) {
          lastProgress.current = progress;
          setState({ status: 'running', progress });
        }
      })
      .then(
        ({ outcome, candles }) => {
          if (!outcome.ok) {
            setState({ status: 'error', message: outcome.problems.join(' ') });
            return;
          }
          results.set(key, { result: outcome, candles });
          if (results.size > MAX_CACHED) results.delete(results.keys().next().value as string);
          setState({ status: 'done', result: outcome, candles });
        },
        (error: unknown) => {
          if (error instanceof CancelledError) return;
          const message =
            error instanceof BacktestRunError
              ? error.message
              : 'The backtest could not run. Please try again.';
          setState({ status: 'error', message });
        },
      );
  }, []);

  const cancel = useCallback(() => {
    runner.current?.cancel();
    setState({ status: 'idle' });
  }, []);

  return { state, run, cancel };
}
