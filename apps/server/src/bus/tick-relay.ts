import type { MarketFeed, Tick } from '@gridbot/exchange';
import { type Bus, channels } from './bus';

/** One message on the ticks channel: ticks with the publisher's wall time, for latency across processes. */
interface TickBatch {
  sentAtMs: number;
  /** [market, symbol, price, tsMs, emitted ms before sentAtMs] */
  ticks: Array<[Tick['market'], string, string, number, number]>;
}

/**
 * ROLE=market: subscribes to every stream of the feed and publishes its ticks in batches every `flushMs`
 * (10 ms: a tick waits 5 ms on average, and a fast feed still costs at most 100 messages a second).
 * Within a batch only the latest tick of a stream is kept: subscribers coalesce the same way in-process
 * (a bot busy with one tick only ever sees the latest next), so nothing a bot would have acted on is lost.
 */
export function publishTicks(
  feed: MarketFeed,
  bus: Bus,
  flushMs = 10,
): { stop: () => void; published: () => number } {
  const latest = new Map<string, Tick>();
  const unsubscribers: Array<() => void> = [];
  let published = 0;
  for (const symbol of feed.symbols()) {
    for (const market of ['spot', 'future'] as const) {
      unsubscribers.push(
        feed.subscribe(symbol, market, (tick) => {
          latest.set(`${market}:${symbol}`, tick);
        }),
      );
    }
  }
  const timer = setInterval(() => {
    if (latest.size === 0) return;
    const sentAtMs = Date.now();
    const nowPerf = performance.now();
    const batch: TickBatch = {
      sentAtMs,
      ticks: [...latest.values()].map((t) => [t.market, t.symbol, t.price, t.tsMs, nowPerf - t.emittedAt]),
    };
    published += latest.size;
    latest.clear();
    void bus.publish(channels.ticks, JSON.stringify(batch));
  }, flushMs);
  return {
    stop: () => {
      clearInterval(timer);
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
      const sentPerf = performance.now() - (Date.now() - batch.sentAtMs);
      for (const [market, symbol, price, tsMs, ageMs] of batch.ticks) {
        push({ market, symbol, price, tsMs, emittedAt: sentPerf - ageMs });
      }
    });
}
