import { createTestDb, type DbHandle, users } from '@gridbot/db';
import { PaperExchange } from '@gridbot/exchange';
import { exchangeContract, ManualFeed, paperStoreContract } from '@gridbot/exchange/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyBatch } from './paper-batch.repo';
import { SqlPaperStore } from './sql-paper-store.repo';

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

// The same contract the in-memory store passes (docs/contributing.md §6: one suite for every implementation).
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

  it("writes many users' changes together, and still gives each caller its own answer", async () => {
    const store = new SqlPaperStore(handle.db);
    const ids = await Promise.all(Array.from({ length: 6 }, () => newUserId()));
    for (const id of ids)
      await store.ensureAccount(id, [{ wallet: 'spot', asset: 'USDT', amount: '100' }], 1);
    const order = (userId: string, clientOrderId: string) => ({
      userId,
      market: 'spot' as const,
      symbol: 'BTCUSDT',
      clientOrderId,
      exchangeOrderId: `x-${clientOrderId}`,
      side: 'buy' as const,
      type: 'market' as const,
      status: 'FILLED' as const,
      price: undefined,
      quantity: '0.001',
      filledQuantity: '0.001',
      filledQuote: '50',
      averagePrice: '50000',
      fee: '0.05',
      feeAsset: 'USDT',
      createdMs: 5,
      updatedMs: 5,
      leverage: undefined,
      reduceOnly: false,
      reservedAsset: undefined,
      reserved: '0',
    });
    const buy = (userId: string, clientOrderId: string, spend: string) =>
      store.apply({
        userId,
        tsMs: 5,
        order: { op: 'insert', row: order(userId, clientOrderId) },
        moves: [
          {
            wallet: 'spot',
            asset: 'BTC',
            freeDelta: '0.001',
            lockedDelta: '0',
            kind: 'buy',
            refId: clientOrderId,
          },
          {
            wallet: 'spot',
            asset: 'USDT',
            freeDelta: `-${spend}`,
            lockedDelta: '0',
            kind: 'buy',
            refId: clientOrderId,
          },
        ],
      });
    // Placed before: its second copy in the batch answers duplicate_order with the stored row.
    expect(await buy(ids[0]!, 'dup-1', '50')).toEqual({ ok: true });
    const results = await Promise.all([
      buy(ids[0]!, 'dup-1', '50'),
      buy(ids[1]!, 'ok-1', '50'),
      buy(ids[2]!, 'broke-1', '100.01'),
      buy(ids[3]!, 'ok-2', '50'),
      buy(ids[4]!, 'ok-3', '100'),
      buy(ids[5]!, 'ok-4', '1'),
    ]);
    expect(results[0]).toMatchObject({
      ok: false,
      reason: 'duplicate_order',
      existing: { clientOrderId: 'dup-1' },
    });
    expect(results[2]).toEqual({ ok: false, reason: 'insufficient_balance', wallet: 'spot', asset: 'USDT' });
    expect([results[1], results[3], results[4], results[5]]).toEqual(Array(4).fill({ ok: true }));
    const usdt = async (id: string) => (await store.balances(id)).find((b) => b.asset === 'USDT')?.free;
    expect(await Promise.all(ids.map(usdt))).toEqual(['50', '50', '100', '50', '0', '99']);
    // Every balance still equals its ledger, and the refused changes wrote nothing.
    for (const id of ids) {
      const ledger = await store.ledger(id);
      const sum = (asset: string) =>
        ledger.filter((l) => l.asset === asset).reduce((total, l) => total + Number(l.amount), 0);
      const balances = await store.balances(id);
      for (const b of balances) expect(sum(b.asset)).toBeCloseTo(Number(b.free) + Number(b.locked), 8);
    }
    expect(await store.order(ids[2]!, 'broke-1')).toBeUndefined();
    // A batch where every change can apply commits as a whole (and one that cannot writes nothing).
    const change = (userId: string, clientOrderId: string, spend: string) => ({
      userId,
      tsMs: 6,
      order: { op: 'insert' as const, row: order(userId, clientOrderId) },
      moves: [
        {
          wallet: 'spot' as const,
          asset: 'USDT',
          freeDelta: `-${spend}`,
          lockedDelta: '0',
          kind: 'buy' as const,
          refId: clientOrderId,
        },
      ],
    });
    expect(await applyBatch(handle.db, [change(ids[1]!, 'ok-5', '10'), change(ids[4]!, 'no-1', '1')])).toBe(
      false,
    );
    expect(await applyBatch(handle.db, [change(ids[1]!, 'ok-5', '10'), change(ids[2]!, 'ok-6', '10')])).toBe(
      true,
    );
    expect(await Promise.all([buy(ids[3]!, 'ok-7', '10'), buy(ids[5]!, 'ok-8', '0')])).toEqual(
      Array(2).fill({ ok: true }),
    );
    expect(await Promise.all(ids.map(usdt))).toEqual(['50', '40', '90', '40', '0', '99']);
    expect(await store.order(ids[4]!, 'no-1')).toBeUndefined();
    expect((await store.order(ids[2]!, 'ok-6'))?.status).toBe('FILLED');
  });

  it("fills a user's spot orders that one tick crosses in one write, told in the order the price reached them", async () => {
    const feed = new ManualFeed({ 'spot:BTCUSDT': '50000' });
    const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });
    await paper.start();
    try {
      const ex = paper.forUser(await newUserId());
      const filled: string[] = [];
      paper.on((e) => {
        if (e.type === 'order') filled.push(e.order.clientOrderId);
      });
      for (const [id, price] of [
        ['b47', '47000'],
        ['b49', '49000'],
        ['b48', '48000'],
      ] as const)
        await ex.placeOrder({
          market: 'spot',
          symbol: 'BTCUSDT',
          side: 'buy',
          type: 'limit',
          clientOrderId: id,
          quantity: '0.01',
          price,
        });
      const writes = vi.spyOn(handle.db, 'execute');
      try {
        feed.setPrice('BTCUSDT', 'spot', '46500');
        await vi.waitFor(() => expect(filled).toHaveLength(3), { timeout: 5_000 });
        expect(filled).toEqual(['b49', 'b48', 'b47']);
        // The three fills went out in one statement of the store's group commit, not one each.
        expect(writes).toHaveBeenCalledTimes(1);
      } finally {
        writes.mockRestore();
      }
      // 0.03 BTC less the 0.1 % commission in the coin; 490 + 480 + 470 USDT paid of the 10,000.
      const balances = await ex.balances('spot');
      expect(balances.find((b) => b.asset === 'BTC')?.free).toBe('0.02997');
      expect(balances.find((b) => b.asset === 'USDT')).toMatchObject({ free: '8560', locked: '0' });
    } finally {
      await paper.stop();
    }
  });
});
