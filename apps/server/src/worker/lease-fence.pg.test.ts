import { bots, createTestDb, type DbHandle } from '@gridbot/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { ensureLease } from '../modules/bots';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
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

/** Resolves with `value`, or with 'waiting' when the promise is still pending after `ms`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms))]);

describe('fenced bot leases on PostgreSQL', () => {
  it('holds a claim back until a write under the old token committed; renewals never wait', async () => {
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId, { investment: 100 });
    await ensureLease(handle.db, botId);
    const epoch = (await leases.claimLease(handle.db, 'w1', botId, LEASE_MS))!;

    let commit: () => void = () => {};
    const mayCommit = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let checked: () => void = () => {};
    const wasChecked = new Promise<void>((resolve) => {
      checked = resolve;
    });
    // w1 writes under its token; the transaction stays open until the test lets it commit.
    const write = leases.fencedDb(handle.db, [{ botId, epoch }]).transaction(async (tx) => {
      checked();
      await mayCommit;
      await tx.update(bots).set({ stopReason: 'written by w1' }).where(eq(bots.id, botId));
    });
    await wasChecked;

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

    commit();
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
});
