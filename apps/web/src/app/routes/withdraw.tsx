import { WithdrawPage } from '../../features/platform/components/withdraw-page';
import { usePlatformAccount } from '../platform-account';

export default function WithdrawRoute() {
  const { account, refreshAccount } = usePlatformAccount();
  return account ? <WithdrawPage account={account} onAccountChanged={refreshAccount} /> : null;
}
