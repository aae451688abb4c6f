import type { MarketFeed, Tick } from '@gridbot/exchange';
import { type Bus, channels } from './bus';

/** One message on the ticks channel: ticks with the publisher's wall time, for latency across processes. */
interface TickBatch {
  sentAtMs: number;
  /** [market, symbol, price, tsMs, emitted ms before sentAtMs] */
  ticks: Array<[Tick['market'], string, string, number, number]>;
}

/**
 * ROLE=market: subscribes to every stream of the feed and publishes its ticks as they come, at most one
 * message every `flushMs` (10 ms, so a fast feed costs at most 100 messages a second). A tick after a
 * quiet spell goes out in the same turn of the event loop, with the other streams' ticks of that turn: a
 * fixed 10 ms cadence made every tick wait 5 ms on average and up to 10 ms, a fifth of the 50 ms that
 * tick-to-order is allowed. Within a message only the latest tick of a stream is kept:
 * subscribers coalesce the same way in-process (a bot busy with one tick only ever sees the latest next),
 * so nothing a bot would have acted on is lost.
 */
export function publishTicks(
  feed: MarketFeed,
  bus: Bus,
  flushMs = 10,
): { stop: () => void; published: () => number } {
  const latest = new Map<string, Tick>();
  const unsubscribers: Array<() => void> = [];
  let published = 0;
  let lastSentPerf = Number.NEGATIVE_INFINITY;
  let pending: { cancel: () => void } | undefined;
  const flush = () => {
    pending = undefined;
    if (latest.size === 0) return;
    const nowPerf = performance.now();
    lastSentPerf = nowPerf;
    const batch: TickBatch = {
      // Wall time, not the injected clock nor the monotonic one: the receiving process's monotonic clock has
      // another origin, so the bus's delay is only measurable between two wall clocks (synchronised hosts).
      sentAtMs: Date.now(),
      ticks: [...latest.values()].map((t) => [t.market, t.symbol, t.price, t.tsMs, nowPerf - t.emittedAt]),
    };
    published += latest.size;
    latest.clear();
    void bus.publish(channels.ticks, JSON.stringify(batch));
  };
  const schedule = () => {
    if (pending) return;
    const waitMs = lastSentPerf + flushMs - performance.now();
    if (waitMs <= 0) {
      const immediate = setImmediate(flush);
      pending = { cancel: () => clearImmediate(immediate) };
    } else {
      const timer = setTimeout(flush, waitMs);
      pending = { cancel: () => clearTimeout(timer) };
    }
  };
  for (const symbol of feed.symbols()) {
    for (const market of ['spot', 'future'] as const) {
      unsubscribers.push(
        feed.subscribe(symbol, market, (tick) => {
          latest.set(`${market}:${symbol}`, tick);
          schedule();
        }),
      );
    }
  }
  return {
    stop: () => {
      pending?.cancel();
      for (const unsubscribe of unsubscribers) unsubscribe();
    },
    published: () => published,
  };
}

/**
 * The source of a `RelayFeed` in api and worker processes. `emittedAt` is moved onto this process's
 * monotonic clock (same machine or synchronised clocks), so tick-to-order latency includes the bus.
 */
export function tickSource(bus: Bus) {
  return (push: (tick: Tick) => void) =>
    bus.subscribe(channels.ticks, (message) => {
      const batch = JSON.parse(message) as TickBatch;
      // The wall-clock delay since the sender's `sentAtMs` (see `publishTicks`), moved onto this process's
      // monotonic clock.
      const sentPerf = performance.now() - (Date.now() - batch.sentAtMs);
      for (const [market, symbol, price, tsMs, ageMs] of batch.ticks) {
        push({ market, symbol, price, tsMs, emittedAt: sentPerf - ageMs });
      }
    });
}
