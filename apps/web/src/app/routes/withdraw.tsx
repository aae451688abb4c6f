import { PlaceholderScreen } from '../placeholder-screen';

export default function WithdrawRoute() {
  return <PlaceholderScreen title="Withdraw" line="Withdrawals are not available yet." />;
}
