import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { FigureCard } from '../../../components/ui/figure-card';
import { LayersIcon, WalletIcon, ZapIcon } from '../../../components/ui/icons';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatUsdt } from '../lib/amounts';

interface BalanceCardProps {
  label: string;
  icon: ReactNode;
  value: string | undefined;
  loading: boolean;
  highlight?: boolean;
  className?: string;
}

/** One figure: 2 decimals, or 'NO DATA' when it could not be read (docs/spec/02-bots-wallet-account.md Wallet). */
function BalanceCard({ label, icon, value, loading, highlight = false, className }: BalanceCardProps) {
  const shown = formatUsdt(value);
  return (
    <FigureCard
      label={label}
      icon={icon}
      highlight={highlight}
      className={className}
      labelRowClassName="items-start sm:items-center"
    >
      <div className="mt-3 min-h-9 sm:mt-4">
        {loading ? (
          <Skeleton className="h-8 w-36" />
        ) : shown ? (
          <p
            className={clsx(
              'flex flex-wrap items-baseline gap-x-1 leading-9 sm:gap-x-1.5 font-bold tracking-tight text-fg tabular-nums @4xl:text-[1.75rem]',
              highlight ? 'text-[1.75rem]' : 'text-[1.125rem] @2xl:text-[1.375rem]',
            )}
          >
            {shown}
            <span className="text-xs leading-5 font-semibold text-muted sm:text-sm">USDT</span>
          </p>
        ) : (
          <p className="text-xl leading-9 font-bold tracking-wide text-muted">NO DATA</p>
        )}
      </div>
    </FigureCard>
  );
}

interface BalanceCardsProps {
  total: { value: string | undefined; loading: boolean };
  spot: { value: string | undefined; loading: boolean };
  futures: { value: string | undefined; loading: boolean };
}

export function BalanceCards({ total, spot, futures }: BalanceCardsProps) {
  return (
    // Three in a row only where the section is wide enough for them (container queries): beside the sidebar on
    // a tablet it is as narrow as a phone, and the figures were cut off.
    <section aria-label="USDT balances" className="@container">
      <div className="grid grid-cols-2 gap-3 @2xl:grid-cols-3 @2xl:gap-4">
        <BalanceCard
          label="Total USDT"
          icon={<WalletIcon />}
          highlight
          className="col-span-2 @2xl:col-span-1"
          {...total}
        />
        <BalanceCard label="Spot USDT (Transferable)" icon={<LayersIcon />} {...spot} />
        <BalanceCard label="Futures USDT (Transferable)" icon={<ZapIcon />} {...futures} />
      </div>
    </section>
  );
}
