import { PlaceholderScreen } from '../placeholder-screen';

export default function SubscriptionRoute() {
  return <PlaceholderScreen title="Subscription" line="Subscriptions are not available yet." />;
}
