import { groupBy } from '@gridbot/shared';
import { Batcher } from './batcher';

/**
 * One statement in flight per read: what arrives meanwhile waits for it and goes in the next, so batches are
 * as large as the load makes them (two in flight answered 1,900–2,050 dashboard polls a second flat out
 * against 2,220–2,240 with one, and no better p99 at 1,200 a second).
 */
const CONCURRENT_READS = 1;

/**
 * A read that many concurrent requests share (the dashboard polls of many users): requests that arrive while
 * the statement runs are answered together by its next run, one round trip to the database for all of them.
 * Alone, a request goes out at once. `run` answers one result per item, in order (see `byKey`).
 */
export function batchedRead<Item, Result>(
  run: (items: readonly Item[]) => Promise<readonly Result[]>,
): Batcher<Item, Result> {
  return new Batcher(run, { concurrency: CONCURRENT_READS, minBatch: 1 });
}

/** Each key's rows, in the order answered (a key without rows gets an empty list). */
export function byKey<Row>(rows: readonly Row[], keyOf: (row: Row) => string): (key: string) => Row[] {
  const groups = groupBy(rows, keyOf);
  return (key) => groups.get(key) ?? [];
}

/** The distinct keys of a batch (one user may ask twice at once: two tabs). */
export const distinct = (keys: readonly string[]) => [...new Set(keys)];
