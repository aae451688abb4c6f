import { useParams } from 'react-router';
import { EditStrategy } from '../../features/strategies/components/edit-strategy';
import { strategyEditorBacktest } from '../backtest-slots';

/** /editstrategy/{strategy_name} (docs/spec/01-core-screens.md §2). */
export default function EditStrategyRoute() {
  const { strategy_name: name = '' } = useParams();
  return <EditStrategy key={name} kind="multigrid" name={name} renderBacktest={strategyEditorBacktest} />;
}
