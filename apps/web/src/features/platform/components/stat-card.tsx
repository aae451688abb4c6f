import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { FigureCard } from '../../../components/ui/figure-card';

interface StatCardProps {
  label: string;
  icon: ReactNode;
  value: ReactNode;
  /** Small text after the value, e.g. the token. */
  unit?: string;
  highlight?: boolean;
  /** A line under the figure saying what it means. */
  note?: ReactNode;
  footer?: ReactNode;
  className?: string;
}

/** One figure of the platform wallet, in the Wallet Dashboard's card style. */
export function StatCard({
  label,
  icon,
  value,
  unit,
  highlight = false,
  note,
  footer,
  className,
}: StatCardProps) {
  return (
    <FigureCard label={label} icon={icon} highlight={highlight} className={clsx('flex flex-col', className)}>
      <div className="mt-3 flex min-h-9 flex-wrap items-baseline gap-x-1.5 sm:mt-4">
        <span className="text-[1.375rem] leading-9 font-bold tracking-tight text-fg tabular-nums sm:text-[1.625rem]">
          {value}
        </span>
        {unit ? <span className="text-xs font-semibold text-muted sm:text-sm">{unit}</span> : null}
      </div>
      {note ? <p className="mt-2 text-xs leading-snug text-muted">{note}</p> : null}
      {footer ? <div className="mt-3 flex flex-wrap gap-2">{footer}</div> : null}
    </FigureCard>
  );
}
