import { Batcher } from '../lib/batcher';

/**
 * Group commit: requests that arrive while one write is in flight (or in the same turn of the event loop)
 * are written together by one call of `write`, and each caller's promise settles when that write has
 * committed. A tick that triggers hundreds of bots then costs one transaction instead of hundreds, and no
 * caller goes on before its own rows are durable (intent before order, docs/trading-rules.md §3).
 *
 * When a batch fails, each of its requests is written alone, so one bad row fails only its own caller.
 */
export class GroupCommit<T> {
  private readonly batcher: Batcher<T, void>;

  /**
   * @param maxBatch most requests in one write.
   * @param concurrency writes in flight at once. More than one only when no two requests in flight can
   *   touch the same rows in an order that matters (the bot runtime: each bot has one write at a time).
   * @param minBatch fewest requests a write takes when more wait (see `BatcherOptions`).
   */
  constructor(
    write: (items: readonly T[]) => Promise<void>,
    maxBatch = 1000,
    concurrency = 1,
    minBatch = 16,
  ) {
    this.batcher = new Batcher<T, void>(
      async (items) => {
        await write(items);
        return items.map(() => undefined);
      },
      { maxBatch, concurrency, minBatch },
    );
  }

  submit(item: T): Promise<void> {
    return this.batcher.submit(item);
  }
}
