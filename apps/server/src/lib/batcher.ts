export interface BatcherOptions {
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
  private readonly maxBatch: number;
  private readonly concurrency: number;
  private readonly minBatch: number;

  constructor(
    private readonly run: (items: readonly T[]) => Promise<readonly R[]>,
    options: BatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 1000;
    this.concurrency = options.concurrency ?? 1;
    this.minBatch = options.minBatch ?? 16;
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
      const batch = this.waiting.splice(0, this.batchSize());
      this.running += 1;
      try {
        await this.settle(batch);
      } finally {
        this.running -= 1;
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
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
    }
    for (const b of batch) {
      try {
        const [result] = await this.run([b.item]);
        b.resolve(result as R);
      } catch (single) {
        b.reject(single);
      }
    }
  }

  /** This call's share of what waits: an even split over the calls not yet busy. */
  private batchSize(): number {
    const free = Math.max(1, this.concurrency - this.running);
    const share = Math.max(this.minBatch, Math.ceil(this.waiting.length / free));
    return Math.min(this.maxBatch, share);
  }
}
