import { WalletDashboard } from '../../features/wallet/components/wallet-dashboard';

export default function MyWalletRoute() {
  return <WalletDashboard />;
}
