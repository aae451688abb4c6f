import { SubscriptionPage } from '../../features/platform/components/subscription-page';
import { usePlatformAccount } from '../platform-account';

export default function SubscriptionRoute() {
  const { account, refreshAccount } = usePlatformAccount();
  return account ? <SubscriptionPage account={account} onAccountChanged={refreshAccount} /> : null;
}
