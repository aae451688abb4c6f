import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** What the bot runtime reports; every method is cheap enough for the tick path. */
/** The bot runtime's grouped database writes: intents before their orders, fills, states moved without an order. */
export type DbWriteKind = 'intents' | 'fills' | 'states';

export interface WorkerMetrics {
  tick(): void;
  /**
   * From the tick a bot acts on to its placeOrder call. `orderType`: a grid bot's market order, or a range
   * grid's limit order (its answer to a fill, sent once the exchange shows the fill and the grid booked it).
   */
  tickToOrder(seconds: number, orderType: 'market' | 'limit'): void;
  /**
   * Of the same orders, a range grid's answer: from the exchange showing the fill it answers (the look-up's
   * answer) to its placeOrder call. What the runtime itself spends on an answer (booking it with the answer's
   * intent), without the exchange's own time to fill and show the order.
   */
  fillToAnswer(seconds: number): void;
  dbWrite(kind: DbWriteKind, seconds: number): void;
  exchangeError(kind: string): void;
  leaseTakeover(count: number): void;
  setBotsOwned(count: number): void;
}

/** Does nothing: the default when a supervisor runs without a metrics registry (tests, benches). */
export const noMetrics: WorkerMetrics = {
  tick: () => undefined,
  tickToOrder: () => undefined,
  fillToAnswer: () => undefined,
  dbWrite: () => undefined,
  exchangeError: () => undefined,
  leaseTakeover: () => undefined,
  setBotsOwned: () => undefined,
};

/** Fine around the 50 ms tick-to-order goal, so a p99 near it reads as more than "under 100 ms". */
const ORDER_LATENCY_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.075, 0.1, 0.125, 0.15, 0.2, 0.25, 0.5, 1, 2.5,
];

/** Window of the ticks/s gauge. */
const RATE_WINDOW_MS = 10_000;

/** One Prometheus registry per process, served at GET /metrics, labelled with the process's role. */
export function createMetrics(role: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ role });
  collectDefaultMetrics({ register: registry });
  // Counted in a plain number and added to the counter when scraped: ten thousand bots take ten thousand
  // ticks a second, and each inc() of prom-client allocates.
  let unscrapedTicks = 0;
  new Counter({
    name: 'gridbot_ticks_total',
    help: 'Ticks delivered to bots in this process',
    registers: [registry],
    collect() {
      this.inc(unscrapedTicks);
      unscrapedTicks = 0;
    },
  });
  // Ticks per second over the last 10 s, for dashboards without PromQL (rate(gridbot_ticks_total) is the same).
  // The window is elapsed time, measured on the monotonic clock.
  let windowStart = performance.now();
  let windowTicks = 0;
  let lastRate = 0;
  new Gauge({
    name: 'gridbot_ticks_per_second',
    help: 'Ticks delivered to bots per second, averaged over ~10 s',
    registers: [registry],
    collect() {
      const now = performance.now();
      if (now - windowStart >= RATE_WINDOW_MS) {
        lastRate = (windowTicks * 1000) / (now - windowStart);
        windowStart = now;
        windowTicks = 0;
      }
      this.set(lastRate);
    },
  });
  const latency = new Histogram({
    name: 'gridbot_tick_to_order_seconds',
    help: 'From the feed emitting a tick to the bot placing the order it decided on that tick',
    buckets: ORDER_LATENCY_BUCKETS,
    registers: [registry],
  });
  const answers = new Histogram({
    name: 'gridbot_fill_to_answer_seconds',
    help: "From the exchange showing a range grid's fill to the grid placing its answer (the runtime's part of tick-to-order)",
    buckets: ORDER_LATENCY_BUCKETS,
    registers: [registry],
  });
  // The part of tick-to-order spent committing intents (and what fills and flushes cost beside it).
  const writes = new Histogram({
    name: 'gridbot_db_write_seconds',
    help: 'Grouped writes of the bot runtime, by kind (intents, fills, states), from the statement sent to its commit',
    labelNames: ['kind'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'gridbot_exchange_errors_total',
    help: 'Exchange calls of bots that failed, by kind (retryable, rejected, fatal, unknown)',
    labelNames: ['kind'],
    registers: [registry],
  });
  const takeovers = new Counter({
    name: 'gridbot_lease_takeovers_total',
    help: 'Bot leases claimed from another worker whose lease had expired',
    registers: [registry],
  });
  const owned = new Gauge({
    name: 'gridbot_bots_owned',
    help: 'Bots this process runs now',
    registers: [registry],
  });
  const worker: WorkerMetrics = {
    tick() {
      unscrapedTicks += 1;
      windowTicks += 1;
    },
    tickToOrder: (seconds) => latency.observe(seconds),
    fillToAnswer: (seconds) => answers.observe(seconds),
    dbWrite: (kind, seconds) => writes.observe({ kind }, seconds),
    exchangeError: (kind) => errors.inc({ kind }),
    leaseTakeover: (count) => takeovers.inc(count),
    setBotsOwned: (count) => owned.set(count),
  };
  return { registry, worker };
}

export type Metrics = ReturnType<typeof createMetrics>;
