import type { Tx } from '@gridbot/db';
import { sql } from 'drizzle-orm';

/**
 * The first key of every account lock. Two-key advisory locks are a lock space of their own, apart from the
 * one-key locks of the migrations and the hot-wallet payouts, and this key keeps accounts apart from any
 * other two-key lock. Two users whose ids share a hash only wait for each other: slower, never wrong.
 */
const ACCOUNT_LOCK_SPACE = 7_410_113;

/**
 * Waits until no other transaction, in any process, holds the money lock of `userId`, then holds it until
 * `tx` ends (docs/security.md "One account, one queue").
 */
export async function lockAccount(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ACCOUNT_LOCK_SPACE}::int, hashtext(${userId}))`);
}
