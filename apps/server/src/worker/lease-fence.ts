import type { Db, Tx } from '@gridbot/db';
import { staleFences } from './leases.repo';

/**
 * Fenced leases (docs/operations.md "Bot leases"): a worker writes for a bot only while the bot's lease row
 * still carries the fencing token (`bot_leases.epoch`) the worker claimed it with. The local deadline of a
 * lease (LeaseCoordinator) stops a healthy worker from trading past its lease; the token stops one that paused
 * (GC, a stalled host, a lost network) in the middle of a write or a booking and wakes after another worker
 * took the bot over.
 */
export interface Fence {
  botId: string;
  /** The lease's fencing token when this worker claimed it. */
  epoch: number;
}

/** A write for a bot whose lease another worker took over since: nothing of it was written. */
export class FencedError extends Error {
  constructor(readonly botIds: readonly string[]) {
    super(`bot lease taken over by another worker; write refused (${botIds.join(', ')})`);
    this.name = 'FencedError';
  }
}

/** An order held back because this worker no longer trusts its lease of the bot (its local deadline passed). */
export class LeaseLapsedError extends Error {
  constructor(clientOrderId: string) {
    super(`bot lease not renewed in time; order ${clientOrderId} not sent`);
    this.name = 'LeaseLapsedError';
  }
}

const WRITES = new Set<PropertyKey>(['insert', 'update', 'delete']);

/**
 * The database as the runtime's writes for fenced bots see it: every write (`execute`, `transaction`, and the
 * insert, update and delete builders) runs in a transaction that first holds the fences (`staleFences`) and is refused with
 * `FencedError` when one is stale, so
 * no write of a bot's runner can skip the check. Reads (`select`) go straight to the database. `onFenced`
 * hears of a refused write before its caller does.
 */
export function fencedDb(db: Db, fences: readonly Fence[], onFenced: () => void = () => {}): Db {
  const inFence = <T>(fn: (tx: Tx) => Promise<T>): Promise<T> =>
    db
      .transaction(async (tx) => {
        const stale = await staleFences(tx, fences);
        if (stale.length > 0) throw new FencedError(stale);
        return fn(tx);
      })
      .catch((error: unknown) => {
        if (error instanceof FencedError) onFenced();
        throw error;
      });
  return new Proxy(db, {
    get(target, key) {
      if (key === 'transaction') return (fn: (tx: Tx) => Promise<unknown>) => inFence(fn);
      if (key === 'execute')
        return (query: Parameters<Db['execute']>[0]) => inFence((tx) => tx.execute(query));
      if (WRITES.has(key)) {
        return (...args: unknown[]) =>
          deferredBuilder(inFence, (tx) => (tx as unknown as Record<PropertyKey, Chained>)[key]!(...args));
      }
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

// biome-ignore lint/suspicious/noExplicitAny: a query builder's chained methods, replayed on a transaction
type Chained = (...args: unknown[]) => any;

/**
 * A drizzle write builder (`update(t).set(...).where(...)`) recorded call by call and, once awaited, built
 * again on the fenced transaction and run there: a builder runs on the connection it was made on, and the
 * transaction exists only once the write runs.
 */
function deferredBuilder(
  inFence: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>,
  start: (tx: Tx) => unknown,
  calls: ReadonlyArray<{ key: PropertyKey; args: unknown[] }> = [],
): unknown {
  let running: Promise<unknown> | undefined;
  const run = () => {
    running ??= inFence(async (tx) => {
      let builder = start(tx) as Record<PropertyKey, Chained>;
      for (const call of calls) builder = builder[call.key]!(...call.args);
      return await (builder as unknown as PromiseLike<unknown>);
    });
    return running;
  };
  return new Proxy(
    {},
    {
      get(_target, key) {
        if (key === 'then' || key === 'catch' || key === 'finally') {
          const promise = run();
          return (promise[key as 'then'] as Chained).bind(promise);
        }
        return (...args: unknown[]) => deferredBuilder(inFence, start, [...calls, { key, args }]);
      },
    },
  );
}
