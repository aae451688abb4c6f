import { type Db, platformLedger, platformSubscriptions, platformWallets, type Tx } from '@gridbot/db';
import { money } from '@gridbot/shared';
import { and, asc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';

type Conn = Db | Tx;
export type WalletRow = typeof platformWallets.$inferSelect;
export type Account = 'usdtToken' | 'ifcToken' | 'ifxToken' | 'usdtRewardToken' | 'availableCredit';
export type LedgerReason = (typeof platformLedger.$inferInsert)['reason'];

export interface BalanceChange {
  account: Account;
  /** Decimal string; negative debits. */
  delta: string;
}

/** Thrown when a debit would take an account below zero; nothing of the change is written. */
export class InsufficientBalanceError extends Error {
  constructor(
    readonly account: Account,
    readonly need: string,
    readonly have: string,
  ) {
    super(`insufficient ${account}: need ${need}, have ${have}`);
    this.name = 'InsufficientBalanceError';
  }
}

/**
 * The user's wallet, created on first use with the free profit limit. The wallet row and its ledger row are
 * written in one transaction (a savepoint inside a caller's), so no one ever sees a balance its ledger does
 * not back. Safe under concurrency: the insert is ON CONFLICT DO NOTHING, and a second caller's insert waits
 * for the first one's commit.
 */
export async function ensureWallet(db: Conn, userId: string, freeCredit: string): Promise<void> {
  if (await findWallet(db, userId)) return;
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(platformWallets)
      .values({ userId, availableCredit: freeCredit })
      .onConflictDoNothing()
      .returning({ userId: platformWallets.userId });
    if (inserted.length > 0 && money(freeCredit).gt(0)) {
      await tx.insert(platformLedger).values({
        userId,
        account: 'availableCredit',
        delta: freeCredit,
        balanceAfter: freeCredit,
        reason: 'seed',
        refId: 'free-profit-limit',
      });
    }
  });
}

export async function findWallet(db: Conn, userId: string): Promise<WalletRow | undefined> {
  const [row] = await db.select().from(platformWallets).where(eq(platformWallets.userId, userId));
  return row;
}

/**
 * The user's wallet and whether they have an Active subscription, in one statement, so one snapshot: read
 * apart, a purchase committing in between showed the new Active subscription beside the profit limit from
 * before it.
 */
export async function findWalletAndSubscription(db: Conn, userId: string) {
  const [row] = await db
    .select({
      ...getTableColumns(platformWallets),
      subscribed: sql<boolean>`exists (
        select 1 from ${platformSubscriptions}
        where ${platformSubscriptions.userId} = ${platformWallets.userId}
          and ${platformSubscriptions.status} = 'Active')`,
    })
    .from(platformWallets)
    .where(eq(platformWallets.userId, userId));
  return row;
}

/**
 * Applies balance changes to one wallet atomically: a single conditional UPDATE (`col + delta >= 0` for
 * every debited column) takes the row lock, so two concurrent debits of one balance cannot both pass;
 * then one ledger row per changed account with the balance after. Call inside the transaction of the cause;
 * `now` (the injected clock) stamps the wallet's `updatedAt`.
 */
export async function applyChanges(
  tx: Tx,
  userId: string,
  changes: BalanceChange[],
  reason: LedgerReason,
  refId: string | null,
  now: Date,
): Promise<WalletRow> {
  const live = changes.filter((c) => !money(c.delta).isZero());
  const set: Record<string, SQL> = {};
  const guards: SQL[] = [eq(platformWallets.userId, userId)];
  for (const c of live) {
    const column = platformWallets[c.account];
    set[c.account] = sql`${column} + ${c.delta}::numeric`;
    if (money(c.delta).isNeg()) guards.push(sql`${column} + ${c.delta}::numeric >= 0`);
  }
  if (live.length === 0) {
    const row = await findWallet(tx, userId);
    if (!row) throw new Error(`no platform wallet for ${userId}`);
    return row;
  }
  const [row] = await tx
    .update(platformWallets)
    .set({ ...set, updatedAt: now })
    .where(and(...guards))
    .returning();
  if (!row) throw await shortfall(tx, userId, live);
  await tx.insert(platformLedger).values(
    live.map((c) => ({
      userId,
      account: c.account,
      delta: money(c.delta).toFixed(),
      balanceAfter: money(row[c.account]).toFixed(),
      reason,
      refId,
    })),
  );
  return row;
}

async function shortfall(tx: Tx, userId: string, changes: BalanceChange[]): Promise<Error> {
  const row = await findWallet(tx, userId);
  if (!row) return new Error(`no platform wallet for ${userId}`);
  for (const c of changes) {
    const have = money(row[c.account]);
    if (have.plus(c.delta).isNeg()) {
      return new InsufficientBalanceError(c.account, money(c.delta).neg().toFixed(), have.toFixed());
    }
  }
  return new Error('wallet update matched no row');
}

/**
 * The profit limit left of these users' wallets, locked to the end of `tx` in user order (two transactions
 * locking some of the same wallets cannot deadlock). Users without a wallet are missing.
 */
export async function lockCredits(tx: Tx, userIds: readonly string[]) {
  return tx
    .select({ userId: platformWallets.userId, credit: platformWallets.availableCredit })
    .from(platformWallets)
    .where(inArray(platformWallets.userId, [...userIds]))
    .orderBy(asc(platformWallets.userId))
    .for('update');
}

/**
 * Sets the profit limit of each wallet, in one statement, with the ledger rows that explain the change.
 * Only under `lockCredits`'s lock: the credit must not have moved since it was read.
 */
export async function setCredits(
  tx: Tx,
  credits: ReadonlyArray<{ userId: string; credit: string }>,
  ledger: ReadonlyArray<typeof platformLedger.$inferInsert>,
): Promise<void> {
  const changed = credits.map((c) => ({ user_id: c.userId, credit: c.credit }));
  await tx.execute(sql`
    update ${platformWallets} as w set available_credit = x.credit, updated_at = now()
    from json_to_recordset(${JSON.stringify(changed)}::json) as x(user_id uuid, credit numeric)
    where w.user_id = x.user_id`);
  await tx.insert(platformLedger).values([...ledger]);
}

/** Sum of the ledger per account (tests and audits: every balance equals its ledger sum). */
export async function ledgerSums(db: Conn, userId: string): Promise<Record<Account, string>> {
  const rows = await db
    .select({
      account: platformLedger.account,
      total: sql<string>`coalesce(sum(${platformLedger.delta}), 0)`,
    })
    .from(platformLedger)
    .where(eq(platformLedger.userId, userId))
    .groupBy(platformLedger.account);
  const sums: Record<Account, string> = {
    usdtToken: '0',
    ifcToken: '0',
    ifxToken: '0',
    usdtRewardToken: '0',
    availableCredit: '0',
  };
  for (const r of rows) sums[r.account] = money(r.total).toFixed();
  return sums;
}

/** The Active subscriptions of these users become In-Active (their profit limit is used up). */
export async function deactivateSubscriptionsOf(tx: Tx, userIds: readonly string[]): Promise<void> {
  await tx
    .update(platformSubscriptions)
    .set({ status: 'In-Active' })
    .where(
      and(inArray(platformSubscriptions.userId, [...userIds]), eq(platformSubscriptions.status, 'Active')),
    );
}
