import { clsx } from 'clsx';

interface SpinnerProps {
  className?: string;
  /** Announced to screen readers; without it the spinner is decorative. */
  label?: string;
}

export function Spinner({ className, label }: SpinnerProps) {
  const svg = (
    <svg className="size-full animate-spin" viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
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
