import { platformSubscriptions, platformWallets, type Tx } from '@gridbot/db';
import { platformMessages as m, money } from '@gridbot/shared';
import { and, eq } from 'drizzle-orm';
import { HttpError } from '../../lib/http-error';
import { applyChanges, ensureWallet, findWallet } from './ledger';
import type { PlatformDeps } from './platform-deps';

/**
 * The profit limit (DESIGN §5), as two narrow hooks for the bot runtime and the start requests:
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
    if (profit === null || profit === undefined || !money(profit).gt(0)) return { exhausted: false };
    const [wallet] = await tx
      .select({ credit: platformWallets.availableCredit })
      .from(platformWallets)
      .where(eq(platformWallets.userId, userId))
      .for('update');
    if (!wallet) return { exhausted: false };
    const credit = money(wallet.credit);
    const taken = money(profit).gt(credit) ? credit : money(profit);
    if (taken.gt(0)) {
      await applyChanges(
        tx,
        userId,
        [{ account: 'availableCredit', delta: taken.neg().toFixed() }],
        'profit_booked',
        refId,
      );
    }
    const exhausted = credit.minus(taken).lte(0);
    if (exhausted) {
      await tx
        .update(platformSubscriptions)
        .set({ status: 'In-Active' })
        .where(and(eq(platformSubscriptions.userId, userId), eq(platformSubscriptions.status, 'Active')));
    }
    return { exhausted };
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
