import { connectionsOf, type Db, type Tx } from '@gridbot/db';
import { lockAccount } from './account-lock.repo';

/** A connection for the queries of a locked section: the lock's transaction, or the one database. */
export type AccountConn = Db | Tx;

/**
 * The one serialisation point of each account's money (docs/security.md "One account, one queue"). Every
 * operation that checks free funds and then moves or commits them (transfers, swaps, bot and cycle starts)
 * runs its check, its exchange call and its writes as `run(userId, …)`, one at a time per account:
 *
 * - In this process, an account's sections queue in arrival order, so at most one per account waits on the
 *   database.
 * - On PostgreSQL (several API processes may serve one member) the section runs inside a transaction that
 *   first takes the account's advisory lock: the free funds it reads there see every earlier section's
 *   writes, and the lock is held across the exchange call, so no process checks the same funds before the
 *   money has moved. The paper exchange and other requests use other connections of the pool meanwhile; at
 *   most half the pool is held by locked sections, so the sections always find one.
 * - On PGlite one backend serves every query and an open transaction makes the others wait: a section
 *   holding one would wait forever for its own exchange call (the paper exchange keeps its books in the same
 *   database). PGlite is opened by one process only, so the queue alone is the account's serialisation point
 *   there and the section runs on the database itself.
 */
export class AccountLocks {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly holdTransactions: boolean;
  private readonly slots: Semaphore;

  constructor(private readonly db: Db) {
    const connections = connectionsOf(db);
    this.holdTransactions = connections > 1;
    this.slots = new Semaphore(Math.max(1, Math.floor(connections / 2)));
  }

  /**
   * Runs `section` once every earlier section of the account has ended; its queries go to `conn`. A section
   * never runs another of the same account (it would wait for itself), nor hands work to the runtime that
   * must see its writes: that comes after, once they are committed.
   */
  run<T>(userId: string, section: (conn: AccountConn) => Promise<T>): Promise<T> {
    return this.queued(userId, () => {
      if (!this.holdTransactions) return section(this.db);
      return this.slots.use(() =>
        this.db.transaction(async (tx) => {
          await lockAccount(tx, userId);
          return section(tx);
        }),
      );
    });
  }

  private async queued<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(userId) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    const tail = before.then(() => mine);
    this.tails.set(userId, tail);
    await before;
    try {
      return await work();
    } finally {
      done();
      if (this.tails.get(userId) === tail) this.tails.delete(userId);
    }
  }
}

/** At most `size` holders at once; the others wait in arrival order. */
class Semaphore {
  private readonly waiting: Array<() => void> = [];

  constructor(private free: number) {}

  async use<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}
