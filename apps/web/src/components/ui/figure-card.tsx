import { clsx } from 'clsx';
import { type ReactNode, useId } from 'react';
import { Card } from './card';

interface FigureCardProps {
  label: string;
  icon: ReactNode;
  /** The headline card: tinted with the primary colour. */
  highlight?: boolean;
  className?: string;
  /** How the icon and the label align: centred by default. */
  labelRowClassName?: string;
  children: ReactNode;
}

/** A wallet figure card: icon and label on top (the card is a group named by the label), the figure below. */
export function FigureCard({
  label,
  icon,
  highlight = false,
  className,
  labelRowClassName = 'items-center',
  children,
}: FigureCardProps) {
  const labelId = useId();
  return (
    <Card
      role="group"
      aria-labelledby={labelId}
      className={clsx(
        'relative overflow-hidden p-4 sm:p-5',
        highlight && 'bg-linear-to-br from-primary-soft to-transparent',
        className,
      )}
    >
      <div className={clsx('flex gap-2.5', labelRowClassName)}>
        <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary-soft text-primary [&>svg]:size-4.5">
          {icon}
        </span>
        <h2 id={labelId} className="text-[0.8125rem] leading-snug font-medium text-muted sm:text-sm">
          {label}
        </h2>
      </div>
      {children}
    </Card>
  );
}
