/**
 * The platform's own queries: histories, withdrawals, deposits (simulated and on chain, the deposit addresses
 * and the chain cursor), subscriptions, referral levels. Balances and their ledger are in `ledger.repo.ts`.
 */
import {
  chainCursors,
  type Db,
  depositAddresses,
  deposits,
  platformPlans,
  platformSubscriptions,
  referralLevels,
  referralRewards,
  type Tx,
  users,
  withdrawals,
} from '@gridbot/db';
import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';

export type WithdrawalRow = typeof withdrawals.$inferSelect;
export type DepositRow = typeof deposits.$inferSelect;

/** One page of the user's withdrawals, newest first, with the total. */
export async function withdrawalsPage(db: Db, userId: string, offset: number, limit: number) {
  const where = eq(withdrawals.userId, userId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(withdrawals)
      .where(where)
      .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(withdrawals).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** A withdrawal request row (pending until an administrator decides). */
export async function insertWithdrawal(
  tx: Db | Tx,
  values: { userId: string; amount: string; fee: string; toAddress: string },
): Promise<WithdrawalRow> {
  const [row] = await tx.insert(withdrawals).values(values).returning();
  if (!row) throw new Error('withdrawal insert returned nothing');
  return row;
}

/** One page of the user's deposits, newest first, with the total. */
export async function depositsPage(db: Db, userId: string, offset: number, limit: number) {
  const where = eq(deposits.userId, userId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(deposits)
      .where(where)
      .orderBy(desc(deposits.createdAt), desc(deposits.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(deposits).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Opens (or extends) the window in which the watcher credits the user's deposit address. */
export async function setListenUntil(db: Db, userId: string, until: Date): Promise<void> {
  await db.update(depositAddresses).set({ listenUntil: until }).where(eq(depositAddresses.userId, userId));
}

/** A deposits row for a simulated deposit (no chain behind it). */
export async function insertSimulatedDeposit(
  tx: Db | Tx,
  values: { userId: string; token: 'USDT' | 'IFC' | 'IFX'; amount: string; txHash: string; createdAt: Date },
): Promise<DepositRow> {
  const [row] = await tx
    .insert(deposits)
    .values({
      ...values,
      logIndex: 0,
      blockNumber: 0,
      blockHash: 'simulated',
      fromAddress: 'simulated',
      toAddress: 'simulated',
    })
    .returning();
  if (!row) throw new Error('insert into deposits returned no row');
  return row;
}

/** The referral levels, level 1 first. */
export function referralLevelsInOrder(db: Db | Tx) {
  return db.select().from(referralLevels).orderBy(asc(referralLevels.level));
}

/** One page of the user's referral rewards with the referred user's name, newest first, with the total. */
export async function rewardsPage(db: Db, userId: string, offset: number, limit: number) {
  const where = eq(referralRewards.userId, userId);
  const [rows, [total]] = await Promise.all([
    db
      .select({ reward: referralRewards, fromUserName: users.username })
      .from(referralRewards)
      .innerJoin(users, eq(users.id, referralRewards.fromUserId))
      .where(where)
      .orderBy(desc(referralRewards.createdAt), desc(referralRewards.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(referralRewards).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export type PlanRow = typeof platformPlans.$inferSelect;
export type SubscriptionRow = typeof platformSubscriptions.$inferSelect;

/** Plans offered to members: active ones, in the administrator's order. */
export function activePlans(db: Db) {
  return db
    .select()
    .from(platformPlans)
    .where(eq(platformPlans.active, true))
    .orderBy(asc(platformPlans.sortOrder), asc(platformPlans.createdAt));
}

export async function planById(db: Db, planId: string): Promise<PlanRow | undefined> {
  const [plan] = await db.select().from(platformPlans).where(eq(platformPlans.id, planId));
  return plan;
}

/** One page of the user's subscriptions, newest first, with the total. */
export async function subscriptionsPage(db: Db, userId: string, offset: number, limit: number) {
  const where = eq(platformSubscriptions.userId, userId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(platformSubscriptions)
      .where(where)
      .orderBy(desc(platformSubscriptions.createdAt), desc(platformSubscriptions.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(platformSubscriptions).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** The user's new Active subscription to `plan`; the earlier Active ones become In-Active. */
export async function insertActiveSubscription(
  tx: Tx,
  userId: string,
  plan: PlanRow,
): Promise<SubscriptionRow> {
  const [sub] = await tx
    .insert(platformSubscriptions)
    .values({
      userId,
      planId: plan.id,
      planName: plan.name,
      usdtToken: plan.usdtToken,
      ifcToken: plan.ifcToken,
      ifxToken: plan.ifxToken,
      availableCredit: plan.availableCredit,
      status: 'Active',
    })
    .returning();
  if (!sub) throw new Error('subscription insert returned nothing');
  return sub;
}

/** Every Active subscription of the user but `keepId` becomes In-Active. */
export async function deactivateOtherSubscriptions(tx: Tx, userId: string, keepId: string): Promise<void> {
  await tx
    .update(platformSubscriptions)
    .set({ status: 'In-Active' })
    .where(
      and(
        eq(platformSubscriptions.userId, userId),
        eq(platformSubscriptions.status, 'Active'),
        ne(platformSubscriptions.id, keepId),
      ),
    );
}

/** Who referred the user, if anyone. */
export async function referrerOf(tx: Tx, userId: string): Promise<string | null | undefined> {
  const [child] = await tx.select({ referredBy: users.referredBy }).from(users).where(eq(users.id, userId));
  return child?.referredBy;
}

/** A referral reward row; answers its id. */
export async function insertReferralReward(
  tx: Tx,
  values: {
    userId: string;
    fromUserId: string;
    subscriptionId: string;
    level: number;
    percentage: string;
    amount: string;
  },
): Promise<string | undefined> {
  const [reward] = await tx.insert(referralRewards).values(values).returning({ id: referralRewards.id });
  return reward?.id;
}

export type DepositAddressRow = typeof depositAddresses.$inferSelect;

export async function findDepositAddress(db: Db, userId: string): Promise<DepositAddressRow | undefined> {
  const [row] = await db.select().from(depositAddresses).where(eq(depositAddresses.userId, userId));
  return row;
}

/** The next HD wallet index, from the sequence of `hd_index`. */
export async function nextDepositAddressIndex(db: Db): Promise<number> {
  const result = await db.execute<{ n: string }>(
    sql`select nextval(pg_get_serial_sequence('deposit_addresses', 'hd_index'))::text as n`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { n: string }[] }).rows) as {
    n: string;
  }[];
  return Number(rows[0]?.n);
}

/** Stores the user's deposit address unless they already have one. */
export async function insertDepositAddress(
  db: Db,
  row: { userId: string; hdIndex: number; address: string },
): Promise<void> {
  await db.insert(depositAddresses).values(row).onConflictDoNothing();
}

/** Every deposit address and its user. */
export async function depositAddressOwners(db: Db): Promise<{ address: string; userId: string }[]> {
  return db
    .select({ address: depositAddresses.address, userId: depositAddresses.userId })
    .from(depositAddresses);
}

/** The chain's cursor (the last credited block) at `lastBlock`, unless it has one. */
export async function ensureChainCursor(db: Db, chain: string, lastBlock: number): Promise<void> {
  await db.insert(chainCursors).values({ chain, lastBlock }).onConflictDoNothing();
}

/** The last credited block of the chain. */
export async function chainCursorBlock(db: Db, chain: string): Promise<number | undefined> {
  const [cursor] = await db.select().from(chainCursors).where(eq(chainCursors.chain, chain));
  return cursor?.lastBlock;
}

/** `chainCursorBlock` under the cursor row's lock, held to the end of `tx`. */
export async function lockChainCursor(tx: Tx, chain: string): Promise<number | undefined> {
  const [locked] = await tx.select().from(chainCursors).where(eq(chainCursors.chain, chain)).for('update');
  return locked?.lastBlock;
}

export async function moveChainCursor(tx: Tx, chain: string, lastBlock: number, now: Date): Promise<void> {
  await tx.update(chainCursors).set({ lastBlock, updatedAt: now }).where(eq(chainCursors.chain, chain));
}

/** A deposit read off the chain; answers its id, or undefined when that log was credited already. */
export async function insertChainDeposit(
  tx: Tx,
  row: Omit<typeof deposits.$inferInsert, 'id'>,
): Promise<string | undefined> {
  const [inserted] = await tx
    .insert(deposits)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: deposits.id });
  return inserted?.id;
}
