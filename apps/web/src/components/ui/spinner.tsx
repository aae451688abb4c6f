import { clsx } from 'clsx';
import { LoaderIcon } from './icons';

interface SpinnerProps {
  className?: string;
  /** Announced to screen readers; without it the spinner is decorative. */
  label?: string;
}

export function Spinner({ className, label }: SpinnerProps) {
  const svg = <LoaderIcon className="size-full animate-spin" />;
  if (label) {
    return (
      <span role="status" aria-label={label} className={clsx('inline-flex', className)}>
        {svg}
      </span>
    );
  }
  return (
    <span aria-hidden="true" className={clsx('inline-flex', className)}>
      {svg}
    </span>
  );
}
