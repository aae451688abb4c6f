import { botFills, botIntents, bots, createTestDb, type DbHandle } from '@gridbot/db';
import type { EngineState, MarketBuy } from '@gridbot/engine';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { ensureLease } from '../modules/bots';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { deferred, within } from '../testing/waits';
import { type FillRecord, writeFills } from './fills.repo';
import { writeStatesWithIntents } from './intents.repo';
import { FencedError } from './lease-fence';
import * as leases from './leases.repo';

// Fenced leases under real concurrency (PostgreSQL, several connections): a write that checked its fencing
// token holds the lease row until it commits, so a claim by another worker cannot slip in between the check
// and the write; the holder's renewals never wait for it. The takeover itself is lease-fence.test.ts.
// PostgreSQL only (`npm run test:pg`): PGlite has one connection, nothing runs concurrently there.
const LEASE_MS = 60_000;
let handle: DbHandle;
const secrets = SecretBox.fromKey(Buffer.alloc(32, 6));

beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

/** A bot of a new user whose lease w1 holds, with its row and engine state as written. */
async function botLeasedByW1() {
  const userId = await insertUserWithKeys(handle.db, secrets);
  const botId = await insertBot(handle.db, userId, { investment: 100 });
  await ensureLease(handle.db, botId);
  const epoch = (await leases.claimLease(handle.db, 'w1', botId, LEASE_MS))!;
  const [row] = await handle.db.select().from(bots).where(eq(bots.id, botId));
  return { userId, botId, epoch, row: row!, state: row!.engineState as unknown as EngineState };
}

/**
 * w2 claims the bot's lapsed lease in a transaction that stays open until `commit()`: resolves once the claim
 * holds the lease row.
 */
async function claimHeldOpen(
  botId: string,
): Promise<{ claim: Promise<number | undefined>; commit: () => void }> {
  await handle.db.execute(
    sql`update bot_leases set expires_at = now() - interval '1 second' where bot_id = ${botId}`,
  );
  const mayCommit = deferred();
  const claimed = deferred();
  const claim = handle.db.transaction(async (tx) => {
    const newEpoch = await leases.claimLease(tx, 'w2', botId, LEASE_MS);
    claimed.resolve();
    await mayCommit.promise;
    return newEpoch;
  });
  await claimed.promise;
  return { claim, commit: mayCommit.resolve };
}

describe('fenced bot leases on PostgreSQL', () => {
  it('holds a claim back until a write under the old token committed; renewals never wait', async () => {
    const { botId, epoch } = await botLeasedByW1();

    const mayCommit = deferred();
    const checked = deferred();
    // w1 writes under its token; the transaction stays open until the test lets it commit.
    const write = leases.fencedDb(handle.db, [{ botId, epoch }]).transaction(async (tx) => {
      checked.resolve();
      await mayCommit.promise;
      await tx.update(bots).set({ stopReason: 'written by w1' }).where(eq(bots.id, botId));
    });
    await checked.promise;

    // The holder renews, and the lease expires meanwhile: neither waits for the write.
    expect((await within(leases.renewLeases(handle.db, 'w1', LEASE_MS), 2_000)) === 'waiting').toBe(false);
    await handle.db.execute(
      sql`update bot_leases set expires_at = now() - interval '1 second' where bot_id = ${botId}`,
    );
    // w2's fair-share claim skips the row being written; its claim of this very bot waits for the write.
    const claimed = await leases.claimLeases(handle.db, 'w2', LEASE_MS, 100);
    expect(claimed.map((c) => c.botId)).not.toContain(botId);
    const takeover = leases.claimLease(handle.db, 'w2', botId, LEASE_MS);
    expect(await within(takeover, 500)).toBe('waiting');

    mayCommit.resolve();
    await write;
    const newEpoch = await takeover;
    expect(newEpoch).toBeGreaterThan(epoch);
    // The new owner reads what was written under the old token; w1's next write is refused.
    const [row] = await handle.db
      .select({ stopReason: bots.stopReason })
      .from(bots)
      .where(eq(bots.id, botId));
    expect(row?.stopReason).toBe('written by w1');
    await expect(
      leases
        .fencedDb(handle.db, [{ botId, epoch }])
        .update(bots)
        .set({ stopReason: 'late write of w1' })
        .where(eq(bots.id, botId)),
    ).rejects.toBeInstanceOf(FencedError);
    const [after] = await handle.db
      .select({ stopReason: bots.stopReason })
      .from(bots)
      .where(eq(bots.id, botId));
    expect(after?.stopReason).toBe('written by w1');
  });

  it("checks the fence inside a grouped write's one statement: it waits for a claim under way, then writes nothing", async () => {
    const { botId, epoch, row, state } = await botLeasedByW1();
    const buy: MarketBuy = {
      type: 'MarketBuy',
      seq: 1,
      grid: 1,
      qty: '0.01',
      quoteAmount: '20',
      price: 2000,
    };
    const write = (intents: readonly MarketBuy[]) =>
      writeStatesWithIntents(handle.db, [{ botId, state, intents, lastPrice: 2000 }], new Date(), [
        { botId, epoch },
      ]);
    const intentsOf = () => handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));

    // Under a token that holds, the state and its intent are written.
    await write([buy]);
    expect(await intentsOf()).toHaveLength(1);

    // w2 claims the lapsed lease in a transaction that has not committed yet: w1's next write waits for it…
    const { claim, commit } = await claimHeldOpen(botId);
    const late = write([{ ...buy, seq: 2 }]);
    late.catch(() => {});
    expect(await within(late, 500)).toBe('waiting');

    // …and once the claim commits it is refused, having written neither its state nor its intent.
    commit();
    expect(await claim).toBeGreaterThan(epoch);
    await expect(late).rejects.toEqual(new FencedError([botId]));
    expect((await intentsOf()).map((i) => i.seq)).toEqual([1]);
    const [after] = await handle.db.select().from(bots).where(eq(bots.id, botId));
    expect(after!.stateVersion).toBe(row.stateVersion + 1);
  });

  it("checks the fence inside a fill booking's statement, with and without the profit limit's transaction", async () => {
    const { userId, botId, epoch, state } = await botLeasedByW1();
    const fill = (seq: number, side: 'buy' | 'sell', pnl: string | null): FillRecord => ({
      seq,
      side,
      grid: 1,
      price: '2000',
      qty: '0.01',
      quote: '20',
      fee: '0.02',
      pnl,
      timeMs: Date.now(),
    });
    const book = (fills: readonly FillRecord[]) =>
      writeFills(handle.db, [{ botId, userId, fills, state, lastPrice: 2000 }], new Date(), [
        { botId, epoch },
      ]);
    const seqsBooked = async () =>
      (await handle.db.select().from(botFills).where(eq(botFills.botId, botId))).map((f) => f.seq);

    // Under a token that holds, a buy (one statement) and a sell with a profit (in a transaction) are booked.
    await book([fill(1, 'buy', null)]);
    await book([fill(2, 'sell', '0.5')]);
    expect(await seqsBooked()).toEqual([1, 2]);
    const [booked] = await handle.db.select().from(bots).where(eq(bots.id, botId));
    expect(Number(booked!.profitBook)).toBe(0.5);

    // w2 claims the lapsed lease in a transaction that has not committed yet: both bookings wait for it…
    const { claim, commit } = await claimHeldOpen(botId);
    const lateBuy = book([fill(3, 'buy', null)]);
    const lateSell = book([fill(4, 'sell', '0.5')]);
    lateBuy.catch(() => {});
    lateSell.catch(() => {});
    expect(await within(Promise.race([lateBuy, lateSell]), 500)).toBe('waiting');

    // …and once the claim commits both are refused, having booked nothing: no row, no state, no profit.
    commit();
    expect(await claim).toBeGreaterThan(epoch);
    await expect(lateBuy).rejects.toEqual(new FencedError([botId]));
    await expect(lateSell).rejects.toEqual(new FencedError([botId]));
    expect(await seqsBooked()).toEqual([1, 2]);
    const [after] = await handle.db.select().from(bots).where(eq(bots.id, botId));
    expect(after!.stateVersion).toBe(booked!.stateVersion);
    expect(after!.profitBook).toBe(booked!.profitBook);
  });
});
