import { createTestDb, type DbHandle, users } from '@gridbot/db';
import { PaperExchange } from '@gridbot/exchange';
import { exchangeContract, ManualFeed, paperStoreContract } from '@gridbot/exchange/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlPaperStore } from './sql-paper-store';

let handle: DbHandle;
let n = 0;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

async function newUserId(): Promise<string> {
  n += 1;
  const [row] = await handle.db
    .insert(users)
    .values({
      email: `p${n}@example.com`,
      username: `paper${n}`,
      contactNo: '5551234',
      passwordHash: 'x',
      userCode: `PAPER${n}`,
    })
    .returning({ id: users.id });
  return row!.id;
}

// The store contract of the package, on a store emptied before each case (its cases use fixed user ids).
paperStoreContract('SqlPaperStore', async () => {
  await handle.db.execute(sql`truncate paper_accounts cascade`);
  return new SqlPaperStore(handle.db);
});

// The same contract the in-memory store passes (STYLE §6: one suite for every implementation).
exchangeContract('PaperExchange on SqlPaperStore', async () => {
  const feed = new ManualFeed();
  const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });
  await paper.start();
  return {
    exchange: paper.forUser(await newUserId()),
    setPrice: async (symbol, market, price) => feed.setPrice(symbol, market, price),
    close: () => paper.stop(),
  };
});

describe('SqlPaperStore', () => {
  it('creates an account once even when asked twice at the same time', async () => {
    const store = new SqlPaperStore(handle.db);
    const userId = await newUserId();
    const funds = [{ wallet: 'spot' as const, asset: 'USDT', amount: '10000' }];
    const results = await Promise.all([
      store.ensureAccount(userId, funds, 1),
      store.ensureAccount(userId, funds, 1),
    ]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await store.balances(userId)).toEqual([
      { wallet: 'spot', asset: 'USDT', free: '10000', locked: '0' },
    ]);
    expect((await store.ledger(userId)).map((l) => l.amount)).toEqual(['10000']);
  });

  it('rolls a change back whole when a balance would go negative', async () => {
    const store = new SqlPaperStore(handle.db);
    const userId = await newUserId();
    await store.ensureAccount(userId, [{ wallet: 'spot', asset: 'USDT', amount: '100' }], 1);
    const result = await store.apply({
      userId,
      tsMs: 2,
      moves: [
        { wallet: 'spot', asset: 'BTC', freeDelta: '1', lockedDelta: '0', kind: 'buy', refId: 'o1' },
        { wallet: 'spot', asset: 'USDT', freeDelta: '-100.01', lockedDelta: '0', kind: 'buy', refId: 'o1' },
      ],
    });
    expect(result).toEqual({ ok: false, reason: 'insufficient_balance', wallet: 'spot', asset: 'USDT' });
    expect(await store.balances(userId)).toEqual([
      { wallet: 'spot', asset: 'USDT', free: '100', locked: '0' },
    ]);
    expect(await store.ledger(userId)).toHaveLength(1);
  });

  it('never lets two concurrent spends of one balance both pass', async () => {
    const store = new SqlPaperStore(handle.db);
    const userId = await newUserId();
    await store.ensureAccount(userId, [{ wallet: 'spot', asset: 'USDT', amount: '100' }], 1);
    const spend = (ref: string) =>
      store.apply({
        userId,
        tsMs: 3,
        moves: [
          { wallet: 'spot', asset: 'USDT', freeDelta: '-60', lockedDelta: '0', kind: 'fee', refId: ref },
        ],
      });
    const results = await Promise.all([spend('a'), spend('b')]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((await store.balances(userId))[0]?.free).toBe('40');
  });
});
