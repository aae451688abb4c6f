import { clsx } from 'clsx';
import { type ReactNode, useId } from 'react';
import { Card } from '../../../components/ui/card';

interface StatCardProps {
  label: string;
  icon: ReactNode;
  value: ReactNode;
  /** Small text after the value, e.g. the token. */
  unit?: string;
  highlight?: boolean;
  footer?: ReactNode;
  className?: string;
}

/** One figure of the platform wallet, in the Wallet Dashboard's card style. */
export function StatCard({ label, icon, value, unit, highlight = false, footer, className }: StatCardProps) {
  const labelId = useId();
  return (
    <Card
      role="group"
      aria-labelledby={labelId}
      className={clsx(
        'relative flex flex-col overflow-hidden p-4 sm:p-5',
        highlight && 'bg-linear-to-br from-primary-soft to-transparent',
        className,
      )}
    >
      <div className="flex items-center gap-2.5">
        <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary-soft text-primary [&>svg]:size-4.5">
          {icon}
        </span>
        <h2 id={labelId} className="text-[0.8125rem] leading-snug font-medium text-muted sm:text-sm">
          {label}
        </h2>
      </div>
      <div className="mt-3 flex min-h-9 flex-wrap items-baseline gap-x-1.5 sm:mt-4">
        <span className="text-[1.375rem] leading-9 font-bold tracking-tight text-fg tabular-nums sm:text-[1.625rem]">
          {value}
        </span>
        {unit ? <span className="text-xs font-semibold text-muted sm:text-sm">{unit}</span> : null}
      </div>
      {footer ? <div className="mt-3 flex flex-wrap gap-2">{footer}</div> : null}
    </Card>
  );
}
