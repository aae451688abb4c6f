import { clsx } from 'clsx';
import type { HTMLAttributes } from 'react';

export type BadgeTone = 'neutral' | 'primary' | 'up' | 'down' | 'warn' | 'pro';

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-surface-2 text-muted ring-line',
  // The hover blue is the deeper one in either theme: 4.5:1 or more on the tinted badge (WCAG AA).
  primary: 'bg-primary-soft text-primary-hover ring-primary/25',
  up: 'bg-up/12 text-up ring-up/25',
  down: 'bg-down/12 text-down ring-down/25',
  warn: 'bg-warn/12 text-warn ring-warn/25',
  pro: 'bg-linear-to-r from-amber-400 to-orange-500 text-slate-950 ring-transparent',
};

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
}

export function Badge({ tone = 'neutral', className, ...props }: BadgeProps) {
  return (
    <span
      className={clsx(
        'inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-[0.6875rem] font-bold uppercase leading-none tracking-wide ring-1 ring-inset',
        tones[tone],
        className,
      )}
      {...props}
    />
  );
}
