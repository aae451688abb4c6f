import * as RadixTabs from '@radix-ui/react-tabs';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';

export interface TabItem<T extends string> {
  value: T;
  label: ReactNode;
}

interface TabsProps<T extends string> {
  /** Accessible name of the tab list. */
  label: string;
  items: readonly TabItem<T>[];
  value: T;
  onChange: (value: T) => void;
  /** Content of the selected tab; without it the tabs are a filter over content shown elsewhere. */
  children?: ReactNode;
  className?: string;
}

/**
 * Tabs on Radix UI's Tabs (WAI-ARIA tabs pattern): one tab stop, arrows, Home and End move and select. Tabs
 * that do not fit wrap onto a second line rather than scroll out of sight (the six admin sections at 768 px).
 */
export function Tabs<T extends string>({ label, items, value, onChange, children, className }: TabsProps<T>) {
  const hasPanel = children !== undefined;
  return (
    <RadixTabs.Root
      value={value}
      onValueChange={(next) => onChange(next as T)}
      activationMode="automatic"
      className={className}
    >
      <RadixTabs.List
        aria-label={label}
        className="inline-flex max-w-full flex-wrap gap-1 rounded-lg border border-line bg-surface-2 p-1"
      >
        {items.map((item) => (
          <RadixTabs.Trigger
            key={item.value}
            value={item.value}
            // A filter has no panel to point at.
            {...(hasPanel ? {} : { 'aria-controls': undefined })}
            className={clsx(
              'whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-semibold transition-colors duration-150',
              'text-muted hover:text-fg data-[state=active]:bg-surface data-[state=active]:text-fg data-[state=active]:shadow-sm',
            )}
          >
            {item.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {hasPanel ? (
        <RadixTabs.Content value={value} className="mt-4">
          {children}
        </RadixTabs.Content>
      ) : null}
    </RadixTabs.Root>
  );
}
