import { PlaceholderScreen } from '../placeholder-screen';

export default function ReferralProgramRoute() {
  return <PlaceholderScreen title="Referral Program" line="The referral program is not available yet." />;
}
