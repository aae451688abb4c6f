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

  /**
   * @param maxBatch most requests in one write.
   * @param concurrency writes in flight at once. More than one only when no two requests in flight can
   *   touch the same rows in an order that matters (the bot runtime: each bot has one write at a time).
   */
  constructor(
    private readonly write: (items: readonly T[]) => Promise<void>,
    private readonly maxBatch = 1000,
    private readonly concurrency = 1,
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
      const batch = this.waiting.splice(0, this.maxBatch);
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
      }
    }
    this.inFlight -= 1;
  }
}
