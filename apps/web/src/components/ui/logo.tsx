import { clsx } from 'clsx';

/** The GridBot mark: three grid levels over a baseline. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={clsx('size-8', className)} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path d="M9 22V12M16 22V7M23 22v-6" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
      <path d="M6.5 26h19" stroke="#4ade80" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function Logo({ className }: { className?: string }) {
  return (
    <span className={clsx('inline-flex items-center gap-2.5', className)}>
      <LogoMark />
      <span className="text-lg font-bold tracking-tight text-fg">
        Grid<span className="text-primary">Bot</span>
      </span>
    </span>
  );
}
