import { createTestDb, type DbHandle } from '@gridbot/db';
import type { PaperChange } from '@gridbot/exchange';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../lib/secret-box';
import { insertUserWithKeys } from '../../testing/bot-fixtures';
import { deferred, within } from '../../testing/waits';
import { SqlPaperStore } from './sql-paper-store.repo';

// The paper exchange's group commit on PostgreSQL, with several connections: two batches are in flight at
// once, yet one user's changes still apply one after another. PostgreSQL only (`npm run test:pg`): PGlite has
// one connection, nothing runs concurrently there.
let handle: DbHandle;
const secrets = SecretBox.fromKey(Buffer.alloc(32, 7));

beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

async function paperUser(store: SqlPaperStore): Promise<string> {
  const userId = await insertUserWithKeys(handle.db, secrets);
  await store.ensureAccount(userId, [{ wallet: 'spot', asset: 'USDT', amount: '100' }], Date.now());
  return userId;
}

/** Moves `amount` USDT from free to locked, as an order resting on the book does (a ledger row all the same). */
const reserve = (userId: string, amount: string, refId: string): PaperChange => ({
  userId,
  tsMs: Date.now(),
  moves: [
    {
      wallet: 'spot',
      asset: 'USDT',
      freeDelta: `-${amount}`,
      lockedDelta: amount,
      kind: 'buy',
      refId,
      always: true,
    },
  ],
});

describe('the paper store on PostgreSQL', () => {
  it("writes another user's change beside a slow batch, and a user's next change only after its last", async () => {
    const store = new SqlPaperStore(handle.db);
    const slow = await paperUser(store);
    const other = await paperUser(store);

    // Another transaction holds the slow user's balance row: the batch carrying their first change waits.
    const released = deferred();
    const locked = deferred();
    const holder = handle.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from paper_balances where user_id = ${slow} for update`);
      locked.resolve();
      await released.promise;
    });
    await locked.promise;
    const first = store.apply(reserve(slow, '10', 'first'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = store.apply(reserve(slow, '20', 'second'));
    const beside = store.apply(reserve(other, '30', 'beside'));

    // The other user's change goes out in a second batch and commits while the first waits.
    expect(await within(beside, 2_000)).toEqual({ ok: true });
    expect(await within(first, 200)).toBe('waiting');
    expect(await within(second, 200)).toBe('waiting');

    released.resolve();
    await holder;
    expect(await first).toEqual({ ok: true });
    expect(await second).toEqual({ ok: true });
    // The slow user's changes applied in the order they came.
    expect((await store.ledger(slow)).map((entry) => entry.refId)).toEqual(['start', 'first', 'second']);
    const usdt = (await store.balances(slow)).find((b) => b.asset === 'USDT');
    expect([Number(usdt?.free), Number(usdt?.locked)]).toEqual([70, 30]);
  });
});
