import { useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { KeyIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { Tabs } from '../../../components/ui/tabs';
import {
  isKeyless,
  useFuturesBalance,
  useSpotBalance,
  useWalletAssets,
  useWalletSummary,
  type WalletMarket,
} from '../api/wallet-queries';
import { useTransferFigures } from '../hooks/use-transfer-figures';
import { AssetsTable } from './assets-table';
import { BalanceCards } from './balance-cards';
import { CommittedCard } from './committed-card';
import { PositionsPanel } from './positions-panel';
import { SwapModal } from './swap-modal';
import { TransferModal } from './transfer-modal';

const ASSET_TABS = [
  { value: 'spot', label: 'Spot' },
  { value: 'futures', label: 'Futures' },
] as const;

function NotConnected() {
  return (
    <EmptyState
      icon={<KeyIcon />}
      title="No exchange connected"
      description="Connect your exchange API keys in API Setting first. Your wallet balances, transfers and swaps appear here once they are saved."
      action={
        <Link to="/api-setting" className={buttonClasses('primary')}>
          Go to API Setting
        </Link>
      }
    />
  );
}

/** docs/spec/02-bots-wallet-account.md Wallet Dashboard: three USDT cards, Internal Transfers, spot and futures assets, Swap to USDT. */
/** The account's exchange as the page names it (before the first answer: "exchange"). */
const venueName = (venue: string | undefined) =>
  venue === 'okx'
    ? 'OKX'
    : venue === 'bybit'
      ? 'Bybit'
      : venue === 'binance'
        ? 'Binance'
        : venue === 'paper'
          ? 'paper'
          : 'exchange';

export function WalletDashboard() {
  const [transferOpen, setTransferOpen] = useState(false);
  const [swapAsset, setSwapAsset] = useState<string | null>(null);
  const [tab, setTab] = useState<WalletMarket>('spot');

  const spotBalance = useSpotBalance();
  const futuresBalance = useFuturesBalance();
  const summary = useWalletSummary();
  const spotAssets = useWalletAssets('spot');
  const futuresAssets = useWalletAssets('futures');
  const assets = tab === 'spot' ? spotAssets : futuresAssets;

  const notConnected = [spotBalance, futuresBalance, summary].some((q) => isKeyless(q.data));
  const { spotTransferable, futuresTransferable, held } = useTransferFigures();
  const swapRow = swapAsset ? (spotAssets.data?.find((a) => a.asset === swapAsset) ?? null) : null;

  return (
    <>
      <PageHeader
        title="Wallet Dashboard"
        description={`USDT and assets of your ${venueName(spotBalance.data?.venue)} account. Transferable figures leave out what running bots hold.`}
        actions={
          notConnected ? null : (
            <Button onClick={() => setTransferOpen(true)} disabled={spotBalance.isPending}>
              Transfer
            </Button>
          )
        }
      />
      {notConnected ? (
        <NotConnected />
      ) : (
        <div className="space-y-6">
          <BalanceCards
            total={{ value: summary.data?.usdt ?? undefined, loading: summary.isPending }}
            spot={{ value: spotBalance.data?.spotusdtAmount ?? undefined, loading: spotBalance.isPending }}
            futures={{ value: futuresTransferable, loading: futuresBalance.isPending }}
          />
          <CommittedCard />
          <PositionsPanel />
          <Card className="p-3 sm:p-5">
            <div className="mb-3 flex flex-wrap items-center justify-between gap-3 px-1 sm:px-0">
              <h2 className="text-base font-semibold text-fg">Assets</h2>
            </div>
            <Tabs label="Wallet assets" items={ASSET_TABS} value={tab} onChange={setTab}>
              <AssetsTable
                market={tab}
                assets={assets.data}
                loading={assets.isPending}
                error={assets.isError ? assets.error.message : null}
                onRetry={() => void assets.refetch()}
                onSwap={tab === 'spot' ? setSwapAsset : undefined}
              />
            </Tabs>
          </Card>
        </div>
      )}
      <TransferModal
        open={transferOpen}
        onClose={() => setTransferOpen(false)}
        transferable={{ spot: spotTransferable, futures: futuresTransferable }}
        held={held}
      />
      <SwapModal asset={swapRow} onClose={() => setSwapAsset(null)} />
    </>
  );
}
