import { PlaceholderScreen } from '../placeholder-screen';

export default function CycleRoute() {
  return <PlaceholderScreen title="Start Cycle" line="Cycles are not available yet." />;
}
