import type { PlatformWalletFields } from '@gridbot/shared';
import { money } from '@gridbot/shared';
import type { PlatformDeps } from '../../config/platform-deps';
import { ensureWallet, findWalletAndSubscription } from '../credit';
import { depositAddressOf, qrCodeOf } from './deposit-address';

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
  const wallet = await findWalletAndSubscription(deps.db, userId);
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
