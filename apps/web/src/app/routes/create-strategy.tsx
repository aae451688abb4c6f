import { StrategyTypeChooser } from '../../features/strategies/components/strategy-type-chooser';

export default function CreateStrategyRoute() {
  return <StrategyTypeChooser />;
}
