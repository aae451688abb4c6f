/**
 * The backtest worker: fetches the candle history, decodes it and runs the engine over it, off the page's
 * main thread (docs/product.md, Backtest). Decoded candles stay here, so the next run on the same pair and
 * period (another setting, a sweep cell) starts at once.
 */
import type { FundingRates } from '@gridbot/engine';
import { type CandleColumns, decodeCandles, type EncodedCandles, sliceCandles } from '@gridbot/shared';
import { runBacktestJob } from '../lib/backtest-core';
import { runRangeJob } from '../lib/range-core';
import type { RunMessage, RunRangeMessage, WorkerReply } from './backtest-protocol';

/** The worker's global scope (the app compiles with the DOM library, not the worker one). */
const scope = self as unknown as {
  postMessage(message: WorkerReply): void;
  onmessage: ((event: MessageEvent<RunMessage | RunRangeMessage>) => void) | null;
};

/** The candles of a period and, for futures, its funding rates. */
interface History {
  candles: CandleColumns;
  funding: FundingRates | null;
}

const candlesByUrl = new Map<string, Promise<History>>();
const CANDLE_CACHE_SIZE = 4;

class FetchFailed extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function fetchCandles(url: string, token: string | null): Promise<History> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    });
  } catch {
    throw new FetchFailed(0, 'No response from server. Please try again.');
  }
  const body = (await response.json().catch(() => null)) as (EncodedCandles & { message?: string }) | null;
  if (!response.ok || !body) {
    throw new FetchFailed(response.status, body?.message ?? 'Something went wrong. Please try again.');
  }
  const funding = body.funding
    ? { timeMs: Float64Array.from(body.funding.timeMs), rate: Float64Array.from(body.funding.rate) }
    : null;
  return { candles: decodeCandles(body), funding };
}

function candlesOf(url: string, token: string | null): Promise<History> {
  let p = candlesByUrl.get(url);
  if (!p) {
    p = fetchCandles(url, token);
    p.catch(() => candlesByUrl.delete(url));
    candlesByUrl.set(url, p);
    // Keep the few most recent periods.
    while (candlesByUrl.size > CANDLE_CACHE_SIZE)
      candlesByUrl.delete(candlesByUrl.keys().next().value as string);
  }
  return p;
}

const post = (reply: WorkerReply) => scope.postMessage(reply);

scope.onmessage = async (event: MessageEvent<RunMessage | RunRangeMessage>) => {
  const m = event.data;
  if (m.type !== 'run' && m.type !== 'run-range') return;
  try {
    const history = await candlesOf(m.candlesUrl, m.token);
    const all = history.candles;
    const candles = m.range ? sliceCandles(all, m.range.fromMs, m.range.toMs) : all;
    const progress = (done: number, total: number) => post({ type: 'progress', id: m.id, done, total });
    if (m.type === 'run-range') {
      const outcome = runRangeJob(m.input, candles, progress, { funding: history.funding });
      post({ type: 'range-done', id: m.id, outcome, candles: candles.openTimeMs.length });
      return;
    }
    const outcome = runBacktestJob(m.input, candles, progress, {
      record: m.record !== false,
      funding: history.funding,
    });
    post({ type: 'done', id: m.id, outcome, candles: candles.openTimeMs.length });
  } catch (error) {
    const status = error instanceof FetchFailed ? error.status : 500;
    post({
      type: 'failed',
      id: m.id,
      status,
      message: error instanceof Error ? error.message : String(error),
    });
  }
};
