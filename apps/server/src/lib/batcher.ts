export interface BatcherOptions<T = unknown, R = unknown> {
  /** Most requests in one call of `run`. */
  maxBatch?: number;
  /**
   * Calls of `run` in flight at once. A wave of requests is split evenly over the free calls (at least
   * `minBatch` each), so hundreds of requests of one moment are served by parallel statements on several
   * database cores instead of one long statement that every one of them waits for.
   */
  concurrency?: number;
  /** Fewest requests a call takes when more wait (splitting finer costs more than it saves). */
  minBatch?: number;
  /**
   * Requests of one key never share a call, nor run beside a call that holds one of their key: the later
   * ones wait for the next call after it, in order, so each key's requests run one after another (as the
   * paper exchange's per-user changes must) however many calls are in flight.
   */
  keyOf?: (item: T) => string;
  /**
   * Serves each request of a failed call on its own (a path that can answer a refusal, where the batched
   * statement can only fail as a whole). Without it each is retried through `run` alone, and a failed call
   * of one request fails its caller.
   */
  alone?: (item: T) => Promise<R>;
}

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Requests that arrive while a call of `run` is in flight (or in the same turn of the event loop) are served
 * together by the next call, and each caller's promise settles with its own element of what that call
 * answered (`run` answers one result per item, in order). Under load, hundreds of requests then cost a few
 * statements instead of one each; alone, a request goes out at once.
 *
 * When a call fails, each of its requests is run alone, so one bad item fails only its own caller.
 */
export class Batcher<T, R> {
  private waiting: Waiting<T, R>[] = [];
  private inFlight = 0;
  /** Drains awaiting a call now (the others are about to start one). */
  private running = 0;
  /** The keys of the requests in calls now (`keyOf`). */
  private readonly busyKeys = new Set<string>();
  private readonly maxBatch: number;
  private readonly concurrency: number;
  private readonly minBatch: number;
  private readonly keyOf: ((item: T) => string) | undefined;
  private readonly alone: (item: T) => Promise<R>;
  private readonly hasAlone: boolean;

  constructor(
    private readonly run: (items: readonly T[]) => Promise<readonly R[]>,
    options: BatcherOptions<T, R> = {},
  ) {
    this.maxBatch = options.maxBatch ?? 1000;
    this.concurrency = options.concurrency ?? 1;
    this.minBatch = options.minBatch ?? 16;
    this.keyOf = options.keyOf;
    this.hasAlone = options.alone !== undefined;
    this.alone = options.alone ?? (async (item) => (await this.run([item]))[0] as R);
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.inFlight < this.concurrency) {
        this.inFlight += 1;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.take(this.batchSize());
      // Every waiting request's key is in a call now: that call's drain serves them when it is done.
      if (batch.length === 0) break;
      this.running += 1;
      try {
        await this.settle(batch);
      } finally {
        this.running -= 1;
        if (this.keyOf !== undefined) for (const b of batch) this.busyKeys.delete(this.keyOf(b.item));
      }
    }
    this.inFlight -= 1;
  }

  private async settle(batch: readonly Waiting<T, R>[]): Promise<void> {
    try {
      const results = await this.run(batch.map((b) => b.item));
      for (const [i, b] of batch.entries()) b.resolve(results[i] as R);
      return;
    } catch (error) {
      if (batch.length === 1 && !this.hasAlone) {
        batch[0]?.reject(error);
        return;
      }
    }
    for (const b of batch) await this.alone(b.item).then(b.resolve, b.reject);
  }

  /**
   * The next `size` requests in order, skipping (for a later call) any whose key is taken: by an earlier
   * request of this batch, of a call in flight, or of one waiting before it.
   */
  private take(size: number): Waiting<T, R>[] {
    const keyOf = this.keyOf;
    if (keyOf === undefined) return this.waiting.splice(0, size);
    const batch: Waiting<T, R>[] = [];
    const rest: Waiting<T, R>[] = [];
    const skipped = new Set<string>();
    for (const w of this.waiting) {
      const key = keyOf(w.item);
      if (batch.length < size && !this.busyKeys.has(key) && !skipped.has(key)) {
        this.busyKeys.add(key);
        batch.push(w);
      } else {
        skipped.add(key);
        rest.push(w);
      }
    }
    this.waiting = rest;
    return batch;
  }

  /** This call's share of what waits: an even split over the calls not yet busy. */
  private batchSize(): number {
    const free = Math.max(1, this.concurrency - this.running);
    const share = Math.max(this.minBatch, Math.ceil(this.waiting.length / free));
    return Math.min(this.maxBatch, share);
  }
}
