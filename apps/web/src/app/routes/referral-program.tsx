import { ReferralProgram } from '../../features/platform/components/referral-program';
import { usePlatformAccount } from '../platform-account';

export default function ReferralProgramRoute() {
  const { account } = usePlatformAccount();
  return account ? <ReferralProgram account={account} /> : null;
}
