import { clsx } from 'clsx';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatUsd } from '../../../lib/format';

export interface FundsFigure {
  label: string;
  value: number | string | null | undefined;
  loading: boolean;
  /** Colour by sign (profit figures). */
  signed?: boolean;
}

/** docs/spec/01-core-screens.md Dashboard funds figures: usdt, availableBalance, totalProfit, lossBook, totalpnl. */
export function FundsFigures({ figures }: { figures: FundsFigure[] }) {
  return (
    <section aria-label="Funds" className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-5">
      {figures.map((figure, i) => {
        const n = Number(figure.value);
        return (
          <Card key={figure.label} className={clsx('p-4', i === 0 && 'col-span-2 sm:col-span-1')}>
            <h2 className="text-xs font-medium text-muted">{figure.label}</h2>
            {figure.loading ? (
              <Skeleton className="mt-1.5 h-7 w-24" />
            ) : (
              <p
                className={clsx(
                  'mt-1.5 truncate text-xl font-bold tabular-nums',
                  figure.signed && n > 0 ? 'text-up' : figure.signed && n < 0 ? 'text-down' : 'text-fg',
                )}
              >
                {formatUsd(figure.value)}
              </p>
            )}
          </Card>
        );
      })}
    </section>
  );
}
