import { MyStrategies } from '../../features/strategies/components/my-strategies';

export default function MyStrategiesRoute() {
  return <MyStrategies />;
}
