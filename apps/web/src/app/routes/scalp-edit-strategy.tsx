import { useParams } from 'react-router';
import { EditStrategy } from '../../features/strategies/components/edit-strategy';
import { strategyEditorBacktest } from '../backtest-slots';

/** /scalpeditstrategy/{strategy_name} (docs/spec/01-core-screens.md §2). */
export default function ScalpEditStrategyRoute() {
  const { strategy_name: name = '' } = useParams();
  return <EditStrategy key={name} kind="scalping" name={name} renderBacktest={strategyEditorBacktest} />;
}
