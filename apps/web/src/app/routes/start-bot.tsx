import { PageHeader } from '../../components/ui/page-header';
import { StartBotForm } from '../../features/bots/components/start-bot-form';
import { MarketOverview } from '../../features/market/components/market-overview';

/** docs/spec/01-core-screens.md Start New Bot: the form, and the Market Overview chart of the chosen pair beside it. */
export default function StartBotRoute() {
  return (
    <>
      <PageHeader
        title="Start New Bot"
        description="Run a Multigrid or Scalping strategy on a spot or futures pair."
      />
      <StartBotForm
        renderChart={(pair, category) => (
          <MarketOverview symbol={pair || 'BTCUSDT'} market={category === 'Future' ? 'future' : 'spot'} />
        )}
      />
    </>
  );
}
