import { createTestDb, type DbHandle } from '@gridbot/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRow } from '../testing/first-row';
import { AccountLocks } from './account-lock';

// PostgreSQL only (`npm run test:pg`): two API processes are two AccountLocks on one database, each with its
// own queue; only the advisory lock stands between them. PGlite is opened by one process only.
let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
  expect(handle.kind).toBe('postgres');
});
afterAll(async () => {
  await handle.close();
});

describe('the account lock across processes (PostgreSQL)', () => {
  it("holds one process's section of an account until the other's has ended", async () => {
    const processA = new AccountLocks(handle.db);
    const processB = new AccountLocks(handle.db);
    const events: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const aIn = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const a = processA.run('shared-user', async () => {
      events.push('a in');
      entered();
      await held;
      events.push('a out');
    });
    await aIn;
    const b = processB.run('shared-user', async () => {
      events.push('b in');
    });
    // B's section waits on the lock: let A end only once B is queued in the database, then B runs.
    await waitForLockWaiter();
    expect(events).toEqual(['a in']);
    release();
    await Promise.all([a, b]);
    expect(events).toEqual(['a in', 'a out', 'b in']);
  });

  it('keeps half the pool free: sections of many accounts at once, each also querying outside, all end', async () => {
    const locks = new AccountLocks(handle.db);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        locks.run(`user-${i}`, async () => {
          return (await firstRow<{ one: number }>(handle.db.execute(sql`select 1 as one`))).one;
        }),
      ),
    );
    expect(answers).toEqual(Array(20).fill(1));
  });
});

/** Resolves once some backend of this database waits for an advisory lock. */
async function waitForLockWaiter(): Promise<void> {
  for (;;) {
    const waiting = await firstRow<{ n: number }>(
      handle.db.execute(
        sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`,
      ),
    );
    if (waiting.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
