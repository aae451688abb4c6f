import { clsx } from 'clsx';
import type { ComponentProps, HTMLAttributes, ReactNode } from 'react';

/**
 * A grid of cards: as many a row as fit at 20rem or more (one below that). A fixed two columns from 640 px left
 * cards about 190 px wide beside the 768 px sidebar, too narrow for their names and figures.
 */
export const cardGridClass = 'grid gap-4 grid-cols-[repeat(auto-fill,minmax(min(20rem,100%),1fr))]';

export function Card({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div className={clsx('rounded-xl border border-line bg-surface shadow-card', className)} {...props} />
  );
}

interface CardHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
}

export function CardHeader({ title, description, actions, className }: CardHeaderProps) {
  return (
    <div className={clsx('flex items-start justify-between gap-4 border-b border-line px-5 py-4', className)}>
      <div className="min-w-0">
        <h2 className="text-base font-semibold text-fg">{title}</h2>
        {description ? <p className="mt-0.5 text-sm text-muted">{description}</p> : null}
      </div>
      {actions}
    </div>
  );
}

export function CardBody({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={clsx('p-5', className)} {...props} />;
}
