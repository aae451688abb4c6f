import { clsx } from 'clsx';

/** A grey placeholder block shaped like the content that is loading; hidden from screen readers. */
export function Skeleton({ className }: { className?: string }) {
  return (
    <span aria-hidden="true" className={clsx('block animate-pulse rounded-md bg-surface-2', className)} />
  );
}
