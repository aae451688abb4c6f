import { MyStrategies } from '../../features/strategies/components/my-strategies';
import { StrategyBacktest } from '../backtest-slots';

export default function MyStrategiesRoute() {
  return <MyStrategies renderBacktest={(strategy) => <StrategyBacktest strategy={strategy} />} />;
}
