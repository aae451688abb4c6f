import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/badge';
import { EditIcon } from '../../../components/ui/icons';

/** Live is green, Pause the warning colour (docs/spec/01-core-screens.md §4), Stopping too (its final sale under way); Stopped grey. */
export function StatusBadge({ status }: { status: string }) {
  const tone = status === 'Live' ? 'up' : status === 'Pause' || status === 'Stopping' ? 'warn' : 'neutral';
  return (
    <Badge tone={tone} className="normal-case">
      {status === 'Live' ? <span className="size-1.5 animate-pulse rounded-full bg-current" /> : null}
      {status}
    </Badge>
  );
}

interface StatProps {
  label: ReactNode;
  value: ReactNode;
  tone?: string;
  title?: string;
  children?: ReactNode;
}

/** One figure of the stats grid. */
export function Stat({ label, value, tone, title, children }: StatProps) {
  return (
    <div className="min-w-0 rounded-xl border border-line bg-surface p-3.5 shadow-card sm:p-4" title={title}>
      <dt className="truncate text-xs font-medium text-muted">{label}</dt>
      {/* A figure too long for its box ends in an ellipsis; the whole figure shows on hover. */}
      <dd
        className={clsx('mt-1.5 truncate text-base font-bold tabular-nums sm:text-lg', tone || 'text-fg')}
        title={typeof value === 'string' || typeof value === 'number' ? String(value) : undefined}
      >
        {value}
      </dd>
      {children}
    </div>
  );
}

interface PanelRowProps {
  label: string;
  value: ReactNode;
  tone?: string;
  /** Shows an edit icon that calls this. */
  onEdit?: () => void;
}

/** A row of the side panel: label left, value right, with an optional edit icon. */
export function PanelRow({ label, value, tone, onEdit }: PanelRowProps) {
  return (
    <div className="flex items-center justify-between gap-3 py-2.5">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="flex min-w-0 items-center gap-1.5">
        <span className={clsx('truncate text-sm font-semibold tabular-nums', tone || 'text-fg')}>
          {value}
        </span>
        {onEdit ? (
          <button
            type="button"
            onClick={onEdit}
            aria-label={`Edit ${label}`}
            className="rounded-md p-1 text-muted transition-colors hover:bg-surface-2 hover:text-primary"
          >
            <EditIcon className="size-4" />
          </button>
        ) : null}
      </dd>
    </div>
  );
}
