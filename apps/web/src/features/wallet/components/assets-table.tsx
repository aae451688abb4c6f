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
      cell: (row) => (
        <>
          {amount(row.asset, row.balance)}
          {row.committed && Number(row.committed) > 0 ? (
            <span className="block text-xs font-normal text-muted">
              {amount(row.asset, row.committed)} held by bots
            </span>
          ) : null}
        </>
      ),
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
          <Button
            variant="outline"
            size="sm"
            className="h-7 px-2.5 text-xs @lg:h-8 @lg:px-3 @lg:text-sm"
            onClick={() => onSwap(row.asset)}
            aria-label={`Swap ${row.asset} to USDT`}
          >
            Swap
          </Button>
        ) : null,
    });
  return columns;
}

/** docs/spec/02-bots-wallet-account.md Wallet: columns No, Asset, Balance, Value (USDT); a Swap button per non-USDT spot asset. */
export function AssetsTable({ market, assets, loading, error, onRetry, onSwap }: AssetsTableProps) {
  // Four short columns fit a phone: the table stays a table there.
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
      tableOnPhone
      className="@container"
    />
  );
}
