import {
  adminActions,
  contactMessages,
  type Db,
  platformPlans,
  platformWallets,
  referralLevels,
  type Tx,
  users,
  withdrawals,
} from '@gridbot/db';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { UserRow } from '../identity';

export type WithdrawalRow = typeof withdrawals.$inferSelect;
export type PlanRow = typeof platformPlans.$inferSelect;
type WithdrawalChange = Partial<typeof withdrawals.$inferInsert>;
type PlanValues = Omit<typeof platformPlans.$inferInsert, 'id'>;

/** Every administrator action is logged with who, when and what, in the action's transaction. */
export async function logAdminAction(
  db: Db | Tx,
  admin: UserRow,
  action: string,
  target: string | null,
  details: unknown,
): Promise<void> {
  await db
    .insert(adminActions)
    .values({ adminUserId: admin.id, adminEmail: admin.email, action, target, details });
}

/** One page of the administrators' actions, newest first, with the total. */
export async function adminActionsPage(db: Db, offset: number, limit: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(adminActions).orderBy(desc(adminActions.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(adminActions),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** One page of withdrawals (of one status, or all) with their user's name and e-mail, newest first. */
export async function withdrawalsPage(db: Db, status: string | undefined, offset: number, limit: number) {
  const where = status ? eq(withdrawals.status, status as 'PENDING') : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ w: withdrawals, username: users.username, email: users.email })
      .from(withdrawals)
      .innerJoin(users, eq(users.id, withdrawals.userId))
      .where(where)
      .orderBy(desc(withdrawals.createdAt))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(withdrawals).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** The withdrawal, locked until the transaction ends. */
export async function lockWithdrawal(tx: Tx, id: string): Promise<WithdrawalRow | undefined> {
  const [row] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).for('update');
  return row;
}

/** Changes a withdrawal; with `onlyPending`, only while it is still PENDING. Answers the new row. */
export async function updateWithdrawal(
  tx: Tx,
  id: string,
  change: WithdrawalChange,
  onlyPending = false,
): Promise<WithdrawalRow | undefined> {
  const where = onlyPending
    ? and(eq(withdrawals.id, id), eq(withdrawals.status, 'PENDING'))
    : eq(withdrawals.id, id);
  const [row] = await tx.update(withdrawals).set(change).where(where).returning();
  return row;
}

/** One hot-wallet payout at a time across processes, until the transaction ends. */
export async function lockHotWalletPayouts(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('platform:hot-wallet-payout'))`);
}

/** Every plan, active or not, in the administrator's order. */
export function allPlans(db: Db) {
  return db.select().from(platformPlans).orderBy(platformPlans.sortOrder, platformPlans.createdAt);
}

/** Updates plan `id` (undefined when there is none) or, with no id, inserts a new plan. */
export async function writePlan(tx: Tx, id: string | null, values: PlanValues): Promise<PlanRow | undefined> {
  if (id) {
    const [row] = await tx.update(platformPlans).set(values).where(eq(platformPlans.id, id)).returning();
    return row;
  }
  const [row] = await tx.insert(platformPlans).values(values).returning();
  return row;
}

/** Replaces the referral level table. */
export async function replaceLevels(
  tx: Tx,
  levels: readonly { level: number; rewardPercentage: string; updatedAt: Date }[],
): Promise<void> {
  await tx.delete(referralLevels);
  if (levels.length > 0) await tx.insert(referralLevels).values([...levels]);
}

/** One page of users with their referrer's code and platform wallet, newest first. */
export async function usersPage(db: Db, offset: number, limit: number) {
  const referrer = alias(users, 'referrer');
  const [rows, [total]] = await Promise.all([
    db
      .select({ u: users, referrerCode: referrer.userCode, w: platformWallets })
      .from(users)
      .leftJoin(referrer, eq(referrer.id, users.referredBy))
      .leftJoin(platformWallets, eq(platformWallets.userId, users.id))
      .orderBy(desc(users.createdAt))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(users),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** One page of contact messages, newest first. */
export async function contactMessagesPage(db: Db, offset: number, limit: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(limit).offset(offset),
    db.select({ n: count() }).from(contactMessages),
  ]);
  return { rows, total: total?.n ?? 0 };
}
