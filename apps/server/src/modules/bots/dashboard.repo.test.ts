import { botCommands, bots, type Db } from '@gridbot/db';
import { money } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot, insertCycle, insertUserWithKeys } from '../../testing/bot-fixtures';
import { insertEthGrid } from '../../testing/range-fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { FillRecord } from '../../worker/fills.repo';
import { createRuntimeWrites, haltBot, saveFill } from '../../worker/runtime-writes';
import { insertSession } from '../auth/auth.repo';
import { findLiveSession } from '../identity/users.repo';
import { SqlPaperStore } from '../paper/sql-paper-store.repo';
import { committedFunds } from './committed-funds';
import type { DashboardReads } from './dashboard.repo';

// The dashboard's reads are batched: requests of many users (or one user twice) that meet share a statement.
// Whatever meets in a batch, each request must get its own user's rows and nothing else.
let t: TestApp;
let db: Db;
/** The app's own reads, as its requests share them. */
let reads: DashboardReads;
beforeAll(async () => {
  t = await createTestApp();
  db = t.deps.db;
  reads = t.deps.state.dashboard;
});
afterAll(async () => {
  await t.close();
});

const sell = (seq: number, pnl: string, timeMs: number): FillRecord => ({
  seq,
  side: 'sell',
  grid: 1,
  price: '100',
  qty: '1',
  quote: '100',
  fee: '0',
  pnl,
  timeMs,
});

/** A user with keys, `bots` parked grid bots on distinct symbols (newest last), and one sell per bot. */
async function userWithBots(bots: string[], pnl: string, sellAtMs: number) {
  const userId = await insertUserWithKeys(db, t.deps.secrets);
  const ids: string[] = [];
  const writes = createRuntimeWrites(db, () => Date.now());
  for (const symbol of bots) {
    const id = await insertBot(db, userId, { symbol });
    await haltBot(writes, id, 'Parked by the test');
    const [row] = await db.query.bots.findMany({ where: (b, { eq }) => eq(b.id, id) });
    await saveFill(writes, id, userId, sell(1, pnl, sellAtMs), row!.engineState as never, 100);
    ids.push(id);
  }
  return { userId, ids };
}

describe('batched dashboard reads', () => {
  it('answer every request of a batch with its own user rows, whoever else asked', async () => {
    const now = Date.now();
    const alice = await userWithBots(['BTCUSDT', 'ETHUSDT'], '2.5', now - 1000);
    const bob = await userWithBots(['BNBUSDT'], '-1.25', now - 2 * 86_400_000);
    const carol = await insertUserWithKeys(db, t.deps.secrets);
    await insertCycle(db, carol, { symbol: 'BTCUSDT', buyPrice: 100, sellPrice: 110, cycles: 2, amount: 50 });

    // All in one turn: they meet in the batchers.
    const [a1, b1, c1, a2] = await Promise.all([
      reads.listRunningBotHeadsWithTrades(alice.userId, 'multigrid', now - 86_400_000),
      reads.listRunningBotHeadsWithTrades(bob.userId, 'multigrid', now - 86_400_000),
      reads.listRunningBotHeadsWithTrades(carol, 'multigrid', now - 86_400_000),
      reads.listRunningBotHeadsWithTrades(alice.userId, 'multigrid', now - 86_400_000),
    ]);
    expect(a1.map((b) => [b.id, b.trades24h])).toEqual([
      [alice.ids[1], 1],
      [alice.ids[0], 1],
    ]);
    expect(a1[0]?.createdAt).toBeInstanceOf(Date);
    expect(b1.map((b) => [b.id, b.trades24h])).toEqual([[bob.ids[0], 0]]);
    expect(c1).toEqual([]);
    expect(a2).toEqual(a1);
    const sinceTheSells = await reads.listRunningBotHeadsWithTrades(alice.userId, 'multigrid', now - 500);
    expect(sinceTheSells.map((b) => b.trades24h)).toEqual([0, 0]);

    const [pa, pb, pc] = await Promise.all(
      [alice.userId, bob.userId, carol].map((u) => reads.userProfitAndRunningBots(u, ['multigrid', 'cycle'])),
    );
    expect(pa).toMatchObject({ profit: 5, loss: 0 });
    expect(pa?.running.map((b) => b.id)).toEqual([alice.ids[1], alice.ids[0]]);
    expect(pb).toMatchObject({ profit: 0, loss: -1.25 });
    expect(pb?.running.map((b) => b.id)).toEqual(bob.ids);
    expect(pc).toMatchObject({ profit: 0, loss: 0 });
    expect(pc?.running.map((b) => b.botType)).toEqual(['cycle']);

    const [ka, kc] = await Promise.all([
      reads.keysAndRunningBots(alice.userId, 'multigrid'),
      reads.keysAndRunningBots(carol, 'multigrid'),
    ]);
    expect(ka?.running.map((b) => b.symbol)).toEqual(['ETHUSDT', 'BTCUSDT']);
    expect(kc).toMatchObject({ keys: { apiKey: 'k' }, running: [] });
  });

  it('answer a user without keys, sessions or balances with nothing, beside users who have them', async () => {
    const alice = await insertUserWithKeys(db, t.deps.secrets);
    const [user] = await db.query.users.findMany({ where: (u, { eq }) => eq(u.id, alice) });
    await insertSession(db, alice, 'hash-alice', new Date(Date.now() + 60_000));
    const [found, missing] = await Promise.all([
      findLiveSession(t.deps.state.liveSessions, 'hash-alice'),
      findLiveSession(t.deps.state.liveSessions, 'hash-nobody'),
    ]);
    expect(found?.user).toEqual(user);
    expect(missing).toBeUndefined();

    const store = new SqlPaperStore(db);
    await store.ensureAccount(alice, [{ wallet: 'spot', asset: 'USDT', amount: '1500' }], Date.now());
    const [funded, empty] = await Promise.all([store.balances(alice), store.balances('no-such-user')]);
    expect(funded).toEqual([{ wallet: 'spot', asset: 'USDT', free: '1500', locked: '0' }]);
    expect(empty).toEqual([]);

    const noKeys = '00000000-0000-4000-8000-000000000000';
    await expect(reads.keysAndRunningBots(noKeys, 'multigrid')).resolves.toBeUndefined();
  });

  it("answer each user's stopped range grids and pending re-buys, and the committed funds a lock would read", async () => {
    const now = Date.now();
    const alice = await userWithBots(['BTCUSDT', 'BNBUSDT'], '1', now);
    const bob = await userWithBots(['BNBUSDT'], '1', now);
    await insertCycle(db, bob.userId, {
      symbol: 'BTCUSDT',
      buyPrice: 100,
      sellPrice: 110,
      cycles: 1,
      amount: 50,
    });
    const stopped = await insertEthGrid(db, alice.userId);
    await db.update(bots).set({ status: 'Stopped', stoppedAt: new Date() }).where(eq(bots.id, stopped.botId));
    await insertEthGrid(db, alice.userId); // still running
    // A resume's re-buy still to be bought holds its USDT; one the runtime has booked (done) holds none.
    await db.insert(botCommands).values([
      { botId: alice.ids[0]!, type: 'missing_lots', payload: { reserveUsdt: '12.5' }, status: 'queued' },
      { botId: alice.ids[0]!, type: 'missing_lots', payload: { reserveUsdt: '7.5' }, status: 'applied' },
      { botId: bob.ids[0]!, type: 'missing_lots', payload: { reserveUsdt: '40' }, status: 'done' },
    ]);

    const [ra, rb, sa, sb] = await Promise.all([
      reads.pendingRebuyReserves(alice.userId),
      reads.pendingRebuyReserves(bob.userId),
      reads.stoppedRangeGrids(alice.userId),
      reads.stoppedRangeGrids(bob.userId),
    ]);
    expect(ra.map((r) => [r.botId, r.reserveUsdt]).sort()).toEqual([
      [alice.ids[0], '12.5'],
      [alice.ids[0], '7.5'],
    ]);
    expect(rb).toEqual([]);
    expect(sa.map((r) => r.id)).toEqual([stopped.botId]);
    expect(sb).toEqual([]);

    // A screen reads the committed funds through the shared reads; a money operation on its lock's
    // connection. Both must see the same bots, states and reserves.
    for (const user of [alice.userId, bob.userId]) {
      const [shown, locked] = await Promise.all([
        committedFunds(t.deps, user),
        committedFunds(t.deps, user, db),
      ]);
      expect(shown).toEqual(locked);
    }
    const aliceFunds = await committedFunds(t.deps, alice.userId);
    expect(aliceFunds.bots.map((b) => b.botType).sort()).toEqual(['multigrid', 'multigrid', 'range']);
    const rebuyBot = aliceFunds.bots.find((b) => b.botId === alice.ids[0]);
    const plain = aliceFunds.bots.find((b) => b.botId === alice.ids[1]);
    expect(money(rebuyBot!.usdt).minus(plain!.usdt).toFixed()).toBe('20');
    expect((await committedFunds(t.deps, bob.userId)).bots.map((b) => b.botType).sort()).toEqual([
      'cycle',
      'multigrid',
    ]);
  });
});
