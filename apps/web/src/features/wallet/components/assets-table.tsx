import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
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

const COLUMN_KEYS = ['no', 'asset', 'balance', 'value', 'action'] as const;
const cell = 'px-2 py-3 @lg:px-4';
const numeric = `${cell} text-right tabular-nums`;

function Message({ children, columns }: { children: ReactNode; columns: number }) {
  return (
    <tr>
      <td colSpan={columns} className="px-4 py-10 text-center text-sm text-muted">
        {children}
      </td>
    </tr>
  );
}

/** docs/spec/02-bots-wallet-account.md Wallet: columns No, Asset, Balance, Value (USDT); a Swap button per non-USDT spot asset. */
export function AssetsTable({ market, assets, loading, error, onRetry, onSwap }: AssetsTableProps) {
  const columns = onSwap ? 5 : 4;
  const rows = assets ? [...assets].sort(byValue) : [];
  return (
    // Sized by its own width (container queries), not the screen's: beside the sidebar on a tablet the card is
    // as narrow as a phone.
    <div className="@container relative overflow-x-auto">
      <table className="w-full text-[0.8125rem] @lg:text-sm">
        <caption className="sr-only">{market === 'spot' ? 'Spot assets' : 'Futures assets'}</caption>
        <thead>
          <tr className="border-b border-line text-xs font-semibold uppercase tracking-wide text-muted">
            <th scope="col" className={`${cell} w-8 text-left @lg:w-12`}>
              No
            </th>
            <th scope="col" className={`${cell} text-left`}>
              Asset
            </th>
            <th scope="col" className={`${cell} text-right`}>
              Balance
            </th>
            <th scope="col" className={`${cell} text-right`}>
              Value (USDT)
            </th>
            {onSwap ? (
              <th scope="col" className={`${cell} w-16 @lg:w-24`}>
                <span className="sr-only">Action</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {loading
            ? [0, 1, 2].map((row) => (
                <tr key={row}>
                  {COLUMN_KEYS.slice(0, columns).map((column) => (
                    <td key={column} className={cell}>
                      <Skeleton className="h-5 w-full" />
                    </td>
                  ))}
                </tr>
              ))
            : null}
          {!loading && error ? (
            <Message columns={columns}>
              <span className="block">{error}</span>
              <Button variant="outline" size="sm" className="mt-3" onClick={onRetry}>
                Retry
              </Button>
            </Message>
          ) : null}
          {!loading && !error && rows.length === 0 ? (
            <Message columns={columns}>
              No assets in your {market === 'spot' ? 'spot' : 'futures'} wallet.
            </Message>
          ) : null}
          {!loading && !error
            ? rows.map((row, index) => (
                <tr key={row.asset} className="transition-colors hover:bg-surface-2/50">
                  <td className={`${cell} text-muted tabular-nums`}>{index + 1}</td>
                  <td className={cell}>
                    <span className="flex items-center gap-2.5 font-semibold text-fg">
                      <span className="hidden @lg:contents">
                        <AssetAvatar asset={row.asset} />
                      </span>
                      <span>{row.asset}</span>
                    </span>
                  </td>
                  <td className={`${numeric} text-fg`}>
                    {/* USDT is money: 2 decimals like the cards; coins keep their precision. */}
                    {row.asset === 'USDT' ? formatUsdt(row.balance) : formatQuantity(row.balance)}
                    {row.committed && Number(row.committed) > 0 ? (
                      <span className="block text-xs font-normal text-muted">
                        {row.asset === 'USDT' ? formatUsdt(row.committed) : formatQuantity(row.committed)}{' '}
                        held by bots
                      </span>
                    ) : null}
                  </td>
                  <td className={`${numeric} text-fg`}>{formatUsdt(row.value) ?? '—'}</td>
                  {onSwap ? (
                    <td className={`${cell} text-right`}>
                      {row.asset !== 'USDT' ? (
                        <Button
                          variant="outline"
                          size="sm"
                          className="h-7 px-2.5 text-xs @lg:h-8 @lg:px-3 @lg:text-sm"
                          onClick={() => onSwap(row.asset)}
                          aria-label={`Swap ${row.asset} to USDT`}
                        >
                          Swap
                        </Button>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))
            : null}
        </tbody>
      </table>
    </div>
  );
}
