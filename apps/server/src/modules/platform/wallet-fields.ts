import { platformSubscriptions, platformWallets } from '@gridbot/db';
import type { PlatformWalletFields } from '@gridbot/shared';
import { money } from '@gridbot/shared';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { depositAddressOf, qrCodeOf } from './deposit-address';
import { ensureWallet } from './ledger';
import type { PlatformDeps } from './platform-deps';

/**
 * The platform fields of the session's user data (docs/spec/02-bots-wallet-account.md §3). `isActiveSubscription`: the newest purchase
 * is Active and profit limit remains.
 */
export async function walletFieldsOf(
  deps: PlatformDeps,
  userId: string,
  userCode: string,
): Promise<PlatformWalletFields> {
  await ensureWallet(deps.db, userId, deps.platform.freeCredit);
  // One statement, so one snapshot: read apart, a purchase committing in between showed the new Active
  // subscription beside the profit limit from before it.
  const [wallet] = await deps.db
    .select({
      ...getTableColumns(platformWallets),
      subscribed: sql<boolean>`exists (
        select 1 from ${platformSubscriptions}
        where ${platformSubscriptions.userId} = ${platformWallets.userId}
          and ${platformSubscriptions.status} = 'Active')`,
    })
    .from(platformWallets)
    .where(eq(platformWallets.userId, userId));
  const address = deps.platform.chain ? await depositAddressOf(deps, userId) : undefined;
  const credit = money(wallet?.availableCredit ?? '0');
  return {
    usdtToken: money(wallet?.usdtToken ?? '0').toFixed(),
    ifcToken: money(wallet?.ifcToken ?? '0').toFixed(),
    ifxToken: money(wallet?.ifxToken ?? '0').toFixed(),
    usdtRewardToken: money(wallet?.usdtRewardToken ?? '0').toFixed(),
    availableCredit: credit.toFixed(),
    isActiveSubscription: wallet?.subscribed === true && credit.gt(0),
    userCode,
    qrCode: address ? await qrCodeOf(address.address) : null,
  };
}
