import { WalletDepositPage } from '../../features/platform/components/wallet-deposit-page';
import { usePlatformAccount } from '../platform-account';

export default function WalletDepositRoute() {
  const { account, refreshAccount } = usePlatformAccount();
  return account ? <WalletDepositPage account={account} onAccountChanged={refreshAccount} /> : null;
}
