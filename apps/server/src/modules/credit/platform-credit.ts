import type { platformLedger, Tx } from '@gridbot/db';
import { platformMessages as m, money } from '@gridbot/shared';
import type { PlatformDeps } from '../../config/platform-deps';
import { HttpError } from '../../lib/http-error';
import { deactivateSubscriptionsOf, ensureWallet, findWallet, lockCredits, setCredits } from './ledger.repo';

/**
 * The profit limit (docs/product.md §5), as two narrow hooks for the bot runtime and the start requests:
 * booked profit lowers `availableCredit` (never below zero); at zero nothing new may start.
 */
export const platformCredit = {
  /**
   * Call in the transaction that books a profit (the fill's). A loss or zero changes nothing; a user
   * without a platform wallet (subscriptions never used) is left alone. Answers whether credit is now 0.
   */
  async onProfitBooked(
    tx: Tx,
    userId: string,
    profit: string | number | null | undefined,
    refId: string | null = null,
  ): Promise<{ exhausted: boolean }> {
    const exhausted = await platformCredit.onProfitsBooked(tx, [{ userId, profit, refId }]);
    return { exhausted: exhausted.has(userId) };
  },

  /**
   * `onProfitBooked` for many bookings at once (a batch of fills), in a few statements however many there
   * are: each booking takes what it can of its user's remaining credit, in the given order, with a ledger row
   * of its own. Answers the users whose credit is now 0.
   */
  async onProfitsBooked(
    tx: Tx,
    bookings: ReadonlyArray<{
      userId: string;
      profit: string | number | null | undefined;
      refId: string | null;
    }>,
  ): Promise<Set<string>> {
    const profitable = bookings.filter(
      (b) => b.profit !== null && b.profit !== undefined && money(b.profit).gt(0),
    );
    const exhausted = new Set<string>();
    if (profitable.length === 0) return exhausted;
    // Wallet rows are locked in user order: two batches in flight at once cannot deadlock.
    const userIds = [...new Set(profitable.map((b) => b.userId))].sort();
    const wallets = await lockCredits(tx, userIds);
    const left = new Map(wallets.map((w) => [w.userId, money(w.credit)]));
    const ledger: Array<typeof platformLedger.$inferInsert> = [];
    for (const { userId, profit, refId } of profitable) {
      const credit = left.get(userId);
      if (credit === undefined) continue; // no platform wallet: subscriptions never used
      const taken = money(profit as string | number).gt(credit) ? credit : money(profit as string | number);
      const after = credit.minus(taken);
      left.set(userId, after);
      if (after.lte(0)) exhausted.add(userId);
      if (taken.gt(0))
        ledger.push({
          userId,
          account: 'availableCredit',
          delta: taken.neg().toFixed(),
          balanceAfter: after.toFixed(),
          reason: 'profit_booked',
          refId,
        });
    }
    if (ledger.length > 0) {
      // Under the lock the credit cannot move: set each wallet to what the bookings left.
      const changed = [...new Set(ledger.map((row) => row.userId))].map((id) => ({
        userId: id,
        credit: (left.get(id) ?? money(0)).toFixed(),
      }));
      await setCredits(tx, changed, ledger);
    }
    if (exhausted.size > 0) await deactivateSubscriptionsOf(tx, [...exhausted]);
    return exhausted;
  },

  /** Whether the user may start a new bot or cycle: always when subscriptions are off. */
  async canStart(deps: PlatformDeps & { subscriptionEnabled: boolean }, userId: string): Promise<boolean> {
    if (!deps.subscriptionEnabled) return true;
    await ensureWallet(deps.db, userId, deps.platform.freeCredit);
    const wallet = await findWallet(deps.db, userId);
    return money(wallet?.availableCredit ?? '0').gt(0);
  },

  /** canStart, or a 400 pointing to the Subscription page. */
  async assertCanStart(deps: PlatformDeps & { subscriptionEnabled: boolean }, userId: string): Promise<void> {
    if (!(await platformCredit.canStart(deps, userId))) throw new HttpError(400, m.profitLimitReached);
  },
};
