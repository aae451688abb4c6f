import { CreateStrategy } from '../../features/strategies/components/create-strategy';

export default function CreateScalpingStrategyRoute() {
  return <CreateStrategy kind="scalping" />;
}
