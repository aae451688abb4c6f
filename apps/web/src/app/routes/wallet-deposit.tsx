import { PlaceholderScreen } from '../placeholder-screen';

export default function WalletDepositRoute() {
  return <PlaceholderScreen title="Wallet Deposit" line="Deposits are not available yet." />;
}
