import { CreateStrategy } from '../../features/strategies/components/create-strategy';
import { strategyEditorBacktest } from '../backtest-slots';

/** /botcreate: Create Grid Bot Strategy, titled Multigrid Strategy (docs/spec/01-core-screens.md §2). */
export default function BotCreateRoute() {
  return <CreateStrategy kind="multigrid" renderBacktest={strategyEditorBacktest} />;
}
