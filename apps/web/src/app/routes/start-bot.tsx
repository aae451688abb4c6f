import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { BacktestPanelPlaceholder } from '../../features/backtest/components/backtest-panel-placeholder';
import { StartBotForm } from '../../features/bots/components/start-bot-form';
import { MarketOverview } from '../../features/market/components/market-overview';
import { TransferDialog } from '../../features/wallet/components/transfer-dialog';
import { startCheckKey } from '../../lib/start-check';

// The backtest (engine, charts, worker) loads only when the form shows it.
const BacktestPanel = lazy(() => import('../../features/backtest/components/backtest-panel'));

/**
 * docs/spec/01-core-screens.md Start New Bot: the form, the Market Overview chart of the chosen pair beside it, and
 * the backtest of what the form would start before its Start button (docs/product.md, Backtest).
 */
export default function StartBotRoute() {
  // A new prefill (a strategy's Start, "Start a Multigrid bot instead") is a new form.
  const { search } = useLocation();
  const queryClient = useQueryClient();
  const [transferOpen, setTransferOpen] = useState(false);
  return (
    <>
      <PageHeader
        title="Start New Bot"
        description="Run a Multigrid or Scalping strategy on a spot or futures pair."
      />
      <StartBotForm
        key={search}
        onTransfer={() => setTransferOpen(true)}
        renderChart={(pair, category) => (
          <MarketOverview symbol={pair || 'BTCUSDT'} market={category === 'Future' ? 'future' : 'spot'} />
        )}
        renderBacktest={(subject) =>
          subject.symbol && subject.strategy ? (
            <Suspense fallback={<BacktestPanelPlaceholder />}>
              <BacktestPanel subject={subject} />
            </Suspense>
          ) : null
        }
      />
      {/* Mounted while open only: its balance reads are not needed before. */}
      {transferOpen ? (
        <TransferDialog
          open
          onClose={() => {
            setTransferOpen(false);
            // What is free to start with has changed: ask again at once rather than at the next 10 s poll.
            void queryClient.invalidateQueries({ queryKey: startCheckKey });
          }}
        />
      ) : null}
    </>
  );
}
