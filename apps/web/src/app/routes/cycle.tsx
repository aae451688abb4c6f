import { PageHeader } from '../../components/ui/page-header';
import { LiveCycles } from '../../features/cycles/components/live-cycles';
import { StartCycleForm } from '../../features/cycles/components/start-cycle-form';
import { MarketOverview } from '../../features/market/components/market-overview';

/** docs/spec/02-bots-wallet-account.md Start Cycle: the form with the pair's Market Overview beside it, then the Live Cycles list. */
export default function CycleRoute() {
  return (
    <>
      <PageHeader
        title="Start Cycle"
        description="Buy at a price, sell at a higher one, and repeat for the number of cycles you choose."
      />
      <StartCycleForm
        renderChart={(pair, category) => (
          <MarketOverview symbol={pair} market={category === 'Future' ? 'future' : 'spot'} />
        )}
      />
      <LiveCycles />
    </>
  );
}
