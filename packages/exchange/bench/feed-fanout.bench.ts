/**
 * Feed fan-out: ticks delivered per second to 10,000 in-process subscribers spread over the 22 pairs
 * (spot), and the delay from a tick's publication to each subscriber's call (p50/p99).
 *   saturated: the sim feed steps as fast as it can (every step = one tick per pair and market);
 *   nominal:   the sim feed on its real 1-second timer (one tick per second per pair, as the simulated market publishes).
 * Run: npm run bench feed
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { SYMBOLS } from '@gridbot/shared';
import { SimFeed } from '../src/feeds/sim-feed';
import type { Tick } from '../src/market-feed';

const SUBSCRIBERS = 10_000;
const SATURATED_MS = 3_000;
const NOMINAL_MS = 5_000;
const MAX_SAMPLES = 4_000_000;

interface Recorder {
  delays: Float64Array;
  count: number;
  delivered: number;
}

function subscribeAll(feed: SimFeed, recorder: Recorder): Array<() => void> {
  const unsubscribers: Array<() => void> = [];
  for (let i = 0; i < SUBSCRIBERS; i += 1) {
    const symbol = SYMBOLS[i % SYMBOLS.length]!;
    let threshold = 0;
    unsubscribers.push(
      feed.subscribe(symbol, 'spot', (tick: Tick) => {
        // What a bot does first with a tick: parse the price and compare it with its trigger.
        const price = Number(tick.price);
        if (price > threshold) threshold = price * 1.01;
        recorder.delivered += 1;
        if (recorder.count < MAX_SAMPLES)
          recorder.delays[recorder.count++] = performance.now() - tick.emittedAt;
      }),
    );
  }
  return unsubscribers;
}

function percentile(recorder: Recorder, p: number): number {
  const sorted = recorder.delays.subarray(0, recorder.count).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function report(name: string, recorder: Recorder, ticks: number, elapsedMs: number): void {
  const seconds = elapsedMs / 1000;
  console.log(
    `${name.padEnd(10)} ticks published/s ${(ticks / seconds).toFixed(0).padStart(8)} | ` +
      `deliveries/s ${(recorder.delivered / seconds).toFixed(0).padStart(10)} | ` +
      `delay p50 ${(percentile(recorder, 50) * 1000).toFixed(1)} µs, p99 ${(percentile(recorder, 99) * 1000).toFixed(1)} µs`,
  );
}

async function saturated(): Promise<void> {
  const feed = new SimFeed({ seed: 1, historyCandles: 10 });
  const recorder: Recorder = { delays: new Float64Array(MAX_SAMPLES), count: 0, delivered: 0 };
  const unsubscribers = subscribeAll(feed, recorder);
  for (let i = 0; i < 50; i += 1) feed.step(); // warm-up
  recorder.count = 0;
  recorder.delivered = 0;
  let steps = 0;
  const start = performance.now();
  while (performance.now() - start < SATURATED_MS) {
    feed.step();
    steps += 1;
    if (steps % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const elapsed = performance.now() - start;
  report('saturated', recorder, steps * SYMBOLS.length * 2, elapsed);
  for (const unsubscribe of unsubscribers) unsubscribe();
}

async function nominal(): Promise<void> {
  const feed = new SimFeed({ seed: 2, intervalMs: 1000, historyCandles: 10 });
  const recorder: Recorder = { delays: new Float64Array(MAX_SAMPLES), count: 0, delivered: 0 };
  let ticks = 0;
  for (const symbol of SYMBOLS) {
    const count = () => {
      ticks += 1;
    };
    feed.subscribe(symbol, 'spot', count);
    feed.subscribe(symbol, 'future', count);
  }
  subscribeAll(feed, recorder);
  for (let i = 0; i < 20; i += 1) feed.step(); // warm-up, not counted
  recorder.count = 0;
  recorder.delivered = 0;
  ticks = 0;
  const start = performance.now();
  await feed.start();
  await new Promise((resolve) => setTimeout(resolve, NOMINAL_MS + 50));
  await feed.stop();
  report('nominal', recorder, ticks, performance.now() - start);
}

const cpu = cpus();
console.log(`machine: ${cpu[0]?.model ?? 'unknown cpu'}, ${cpu.length} cores, node ${process.version}`);
console.log(
  `${SUBSCRIBERS} subscribers over ${SYMBOLS.length} pairs (spot); sim feed also ticks 22 futures streams`,
);
await saturated();
await nominal();
