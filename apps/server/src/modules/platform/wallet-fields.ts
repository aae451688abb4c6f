import { platformSubscriptions } from '@gridbot/db';
import type { PlatformWalletFields } from '@gridbot/shared';
import { money } from '@gridbot/shared';
import { and, eq } from 'drizzle-orm';
import { depositAddressOf, qrCodeOf } from './deposit-address';
import { ensureWallet, findWallet } from './ledger';
import type { PlatformDeps } from './platform-deps';

/**
 * The platform fields of the session's user data (spec 02 §3). `isActiveSubscription`: the newest purchase
 * is Active and profit limit remains.
 */
export async function walletFieldsOf(
  deps: PlatformDeps,
  userId: string,
  userCode: string,
): Promise<PlatformWalletFields> {
  await ensureWallet(deps.db, userId, deps.platform.freeCredit);
  const wallet = await findWallet(deps.db, userId);
  const [active] = await deps.db
    .select({ id: platformSubscriptions.id })
    .from(platformSubscriptions)
    .where(and(eq(platformSubscriptions.userId, userId), eq(platformSubscriptions.status, 'Active')))
    .limit(1);
  const address = deps.platform.chain ? await depositAddressOf(deps, userId) : undefined;
  const credit = money(wallet?.availableCredit ?? '0');
  return {
    usdtToken: money(wallet?.usdtToken ?? '0').toFixed(),
    ifcToken: money(wallet?.ifcToken ?? '0').toFixed(),
    ifxToken: money(wallet?.ifxToken ?? '0').toFixed(),
    usdtRewardToken: money(wallet?.usdtRewardToken ?? '0').toFixed(),
    availableCredit: credit.toFixed(),
    isActiveSubscription: active !== undefined && credit.gt(0),
    userCode,
    qrCode: address ? await qrCodeOf(address.address) : null,
  };
}
