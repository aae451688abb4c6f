import { clsx } from 'clsx';
import { Button } from '../../../components/ui/button';
import { type DataColumn, DataTable, rowNumberColumn } from '../../../components/ui/data-table';
import type { WalletAsset, WalletMarket } from '../api/wallet-queries';
import { formatQuantity, formatUsdt } from '../lib/amounts';
import { AssetAvatar } from './asset-avatar';

interface AssetsTableProps {
  market: WalletMarket;
  assets: WalletAsset[] | undefined;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  /** Spot only: Swap on every non-USDT asset. */
  onSwap?: (asset: string) => void;
}

/** Largest value first, assets without a price last; USDT leads at equal value. */
function byValue(a: WalletAsset, b: WalletAsset): number {
  const va = a.value === null ? -1 : Number(a.value);
  const vb = b.value === null ? -1 : Number(b.value);
  return vb - va || a.asset.localeCompare(b.asset);
}

const amount = (asset: string, value: string) =>
  asset === 'USDT' ? formatUsdt(value) : formatQuantity(value);

/** What running bots hold of the asset, written as its balance is; null when they hold none. */
const heldByBots = (row: WalletAsset) =>
  row.committed && Number(row.committed) > 0 ? amount(row.asset, row.committed) : null;

function SwapButton({
  asset,
  onSwap,
  className,
}: {
  asset: string;
  onSwap: (asset: string) => void;
  className?: string;
}) {
  return (
    <Button
      variant="outline"
      size="sm"
      className={clsx('h-7 px-2.5 text-xs', className)}
      onClick={() => onSwap(asset)}
      aria-label={`Swap ${asset} to USDT`}
    >
      Swap
    </Button>
  );
}

function columnsFor(onSwap: ((asset: string) => void) | undefined): DataColumn<WalletAsset>[] {
  const columns: DataColumn<WalletAsset>[] = [
    rowNumberColumn((index) => index + 1),
    {
      key: 'asset',
      header: 'Asset',
      cell: (row) => (
        <span className="flex items-center gap-2.5 font-semibold text-fg">
          <span className="hidden @lg:contents">
            <AssetAvatar asset={row.asset} />
          </span>
          <span>{row.asset}</span>
        </span>
      ),
    },
    {
      key: 'balance',
      header: 'Balance',
      align: 'right',
      className: 'tabular-nums',
      // USDT is money: 2 decimals like the cards; coins keep their precision.
      cell: (row) => {
        const held = heldByBots(row);
        return (
          <>
            {amount(row.asset, row.balance)}
            {held ? <span className="block text-xs font-normal text-muted">{held} held by bots</span> : null}
          </>
        );
      },
    },
    {
      key: 'value',
      header: 'Value (USDT)',
      align: 'right',
      className: 'tabular-nums',
      cell: (row) => formatUsdt(row.value) ?? '—',
    },
  ];
  if (onSwap)
    columns.push({
      key: 'action',
      header: <span className="sr-only">Action</span>,
      label: 'Action',
      align: 'right',
      cell: (row) =>
        row.asset !== 'USDT' ? (
          <SwapButton asset={row.asset} onSwap={onSwap} className="@lg:h-8 @lg:px-3 @lg:text-sm" />
        ) : null,
    });
  return columns;
}

/** An asset on a phone: the coin and what bots hold of it on the left, its balance and value on the right. */
function AssetLine({ row, onSwap }: { row: WalletAsset; onSwap?: (asset: string) => void }) {
  const held = heldByBots(row);
  return (
    <div className="flex items-center gap-3 px-1 py-2.5">
      <AssetAvatar asset={row.asset} />
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold text-fg">{row.asset}</p>
        {held ? <p className="text-xs text-muted">{held} held by bots</p> : null}
      </div>
      <div className="shrink-0 text-right tabular-nums">
        <p className="text-sm font-medium text-fg">{amount(row.asset, row.balance)}</p>
        <p className="text-xs text-muted">{formatUsdt(row.value) ?? '—'} USDT</p>
      </div>
      {onSwap && row.asset !== 'USDT' ? (
        <SwapButton asset={row.asset} onSwap={onSwap} className="shrink-0" />
      ) : null}
    </div>
  );
}

/** Narrower than this (px), the assets show as lines: the Balance column's "held by bots" and Swap would not fit. */
const TABLE_MIN_PX = 480;

/** docs/spec/02-bots-wallet-account.md Wallet: columns No, Asset, Balance, Value (USDT); a Swap button per non-USDT spot asset. */
export function AssetsTable({ market, assets, loading, error, onRetry, onSwap }: AssetsTableProps) {
  return (
    <DataTable
      caption={market === 'spot' ? 'Spot assets' : 'Futures assets'}
      columns={columnsFor(onSwap)}
      rows={assets ? [...assets].sort(byValue) : undefined}
      rowKey={(row) => row.asset}
      loading={loading}
      error={error}
      onRetry={onRetry}
      emptyText={`No assets in your ${market === 'spot' ? 'spot' : 'futures'} wallet.`}
      cardsBelowPx={TABLE_MIN_PX}
      renderCard={(row) => <AssetLine row={row} onSwap={onSwap} />}
      className="@container"
    />
  );
}
