import { clsx } from 'clsx';
import type { ReactNode } from 'react';

interface FigureProps {
  label: ReactNode;
  value: ReactNode;
  /** A text colour class for the value, e.g. from `signTone`. */
  tone?: string;
  /** How the label lays out: truncated by default; a label with an icon next to it passes flex classes. */
  labelClassName?: string;
}

/** One figure of a card's <dl>: a small muted label over a bold value. */
export function Figure({ label, value, tone, labelClassName = 'truncate' }: FigureProps) {
  return (
    <div className="min-w-0">
      <dt className={clsx(labelClassName, 'text-xs text-muted')}>{label}</dt>
      <dd className={clsx('mt-0.5 truncate text-sm font-semibold tabular-nums', tone || 'text-fg')}>
        {value}
      </dd>
    </div>
  );
}

/** Green above zero, red below, the default colour at zero; the figure itself carries its sign too (+/-). */
export function signTone(value: number): string | undefined {
  return value > 0 ? 'text-up' : value < 0 ? 'text-down' : undefined;
}
