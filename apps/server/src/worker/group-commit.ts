/**
 * Group commit: requests that arrive while one write is in flight (or in the same turn of the event loop)
 * are written together by one call of `write`, and each caller's promise settles when that write has
 * committed. A tick that triggers hundreds of bots then costs one transaction instead of hundreds, and no
 * caller goes on before its own rows are durable (intent before order, DESIGN §3).
 *
 * When a batch fails, each of its requests is written alone, so one bad row fails only its own caller.
 */
export class GroupCommit<T> {
  private waiting: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private inFlight = 0;
  /** Drains awaiting a write now (the others are about to start one). */
  private writing = 0;

  /**
   * @param maxBatch most requests in one write.
   * @param concurrency writes in flight at once. More than one only when no two requests in flight can
   *   touch the same rows in an order that matters (the bot runtime: each bot has one write at a time).
   *   A wave of requests is then split evenly over the free writes (at least `minBatch` each), so hundreds
   *   of bots that trade on one tick are written by parallel statements on several database cores
   *   instead of one long statement that every one of them waits for.
   * @param minBatch fewest requests a write takes when more wait (splitting finer costs more than it saves).
   */
  constructor(
    private readonly write: (items: readonly T[]) => Promise<void>,
    private readonly maxBatch = 1000,
    private readonly concurrency = 1,
    private readonly minBatch = 16,
  ) {}

  submit(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
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
      this.writing += 1;
      try {
        await this.write(batch.map((b) => b.item));
        for (const b of batch) b.resolve();
      } catch (error) {
        if (batch.length === 1) {
          batch[0]?.reject(error);
          continue;
        }
        for (const b of batch) {
          try {
            await this.write([b.item]);
            b.resolve();
          } catch (single) {
            b.reject(single);
          }
        }
      } finally {
        this.writing -= 1;
      }
    }
    this.inFlight -= 1;
  }

  /** This write's share of what waits: an even split over the writes not yet busy. */
  private batchSize(): number {
    const free = Math.max(1, this.concurrency - this.writing);
    const share = Math.max(this.minBatch, Math.ceil(this.waiting.length / free));
    return Math.min(this.maxBatch, share);
  }
}
