import { CreateStrategy } from '../../features/strategies/components/create-strategy';
import { strategyEditorBacktest } from '../backtest-slots';

export default function CreateScalpingStrategyRoute() {
  return <CreateStrategy kind="scalping" renderBacktest={strategyEditorBacktest} />;
}
