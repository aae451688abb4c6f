import { createTestDb, type DbHandle } from '@gridbot/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRow } from '../testing/first-row';
import { AccountLocks } from './account-lock';
import { lockAccount } from './account-lock.repo';

// On PGlite, and on PostgreSQL with TEST_DATABASE_URL.
let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('the account lock', () => {
  it('takes the advisory lock inside a transaction on this database', async () => {
    await expect(handle.db.transaction((tx) => lockAccount(tx, 'user-a'))).resolves.toBeUndefined();
  });

  it("runs one account's sections one at a time, in arrival order", async () => {
    const locks = new AccountLocks(handle.db);
    const events: string[] = [];
    const first = gate();
    const sections = ['one', 'two', 'three'].map((name, i) =>
      locks.run('user-b', async () => {
        events.push(`${name} in`);
        if (i === 0) await first.opened;
        events.push(`${name} out`);
      }),
    );
    first.open();
    await Promise.all(sections);
    expect(events).toEqual(['one in', 'one out', 'two in', 'two out', 'three in', 'three out']);
  });

  it('lets another account through while one account waits', async () => {
    const locks = new AccountLocks(handle.db);
    const held = gate();
    const slow = locks.run('user-c', () => held.opened);
    await expect(locks.run('user-d', async () => 'done')).resolves.toBe('done');
    held.open();
    await slow;
  });

  it('runs the next section after one that failed', async () => {
    const locks = new AccountLocks(handle.db);
    const failed = locks.run('user-e', async () => {
      throw new Error('refused');
    });
    await expect(failed).rejects.toThrow('refused');
    await expect(locks.run('user-e', async () => 'next')).resolves.toBe('next');
  });

  it('lets a section query the database besides its own connection (as the paper exchange does)', async () => {
    const locks = new AccountLocks(handle.db);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        locks.run(`user-f${i % 6}`, async (conn) => {
          const inside = await firstRow<{ one: number }>(conn.execute(sql`select 1 as one`));
          const outside = await firstRow<{ two: number }>(handle.db.execute(sql`select 2 as two`));
          return inside.one + outside.two;
        }),
      ),
    );
    expect(answers).toEqual(Array(12).fill(3));
  });
});
